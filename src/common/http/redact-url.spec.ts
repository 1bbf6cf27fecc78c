import { redactUrl } from './redact-url.js';

describe('redactUrl', () => {
  it.each([
    ['/cb?code=wac_secret&state=abc', '/cb?code=[redacted]&state=abc'],
    ['https://x.example/cb?state=s1&code=wac_1#frag', 'https://x.example/cb?state=s1&code=[redacted]#frag'],
    ['/pay/co_1?session=wss_abc&lang=th', '/pay/co_1?session=[redacted]&lang=th'],
    ['/x?%63ode=a&filter[email]=a@b.c', '/x?%63ode=[redacted]&filter[email]=a@b.c'],
    ['/x?REFRESH_TOKEN=r&flag', '/x?REFRESH_TOKEN=[redacted]&flag'],
    ['/b?filter%5Baccount_number%5D=1234567890', '/b?filter%5Baccount_number%5D=[redacted]'],
    ['/b?filter[phone_number][in]=1,2&limit=3', '/b?filter[phone_number][in]=[redacted]&limit=3'],
    ['/no-query', '/no-query'],
  ])('masks credentials in %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
