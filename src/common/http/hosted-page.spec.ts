import type { Request } from 'express';
import express from 'express';
import { formatMoney, hostedErrorPage, pickLocale, renderHostedPage } from './hosted-page.js';

/** A real Express request with the given query and headers, for its `acceptsLanguages`. */
function request(query: Record<string, string>, acceptLanguage?: string): Request {
  const req = Object.create(express.request) as Request;
  Object.defineProperty(req, 'query', { value: query });
  req.headers = acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage };
  return req;
}

describe('hosted page shell', () => {
  it('picks the locale from ?locale, then Accept-Language, else English', () => {
    expect(pickLocale(request({ locale: 'th' }, 'en-US'))).toBe('th');
    expect(pickLocale(request({ locale: 'en' }, 'th-TH'))).toBe('en');
    expect(pickLocale(request({ locale: 'fr' }, 'th-TH,th;q=0.9,en;q=0.8'))).toBe('th');
    expect(pickLocale(request({}, 'en-US,th;q=0.5'))).toBe('en');
    expect(pickLocale(request({}, 'fr-FR'))).toBe('en');
    expect(pickLocale(request({}))).toBe('en');
  });

  it('formats money in the locale with the scaling factor', () => {
    expect(formatMoney(125000, 'THB', 100, 'th')).toBe('฿1,250.00');
    expect(formatMoney(125000, 'THB', 100, 'en')).toBe('฿1,250.00');
    expect(formatMoney(95, 'THB', 1, 'en')).toBe('฿95');
  });

  it('writes a currency by its symbol only where the symbol names it alone; $ and ¥ by the ISO code', () => {
    for (const locale of ['en', 'th'] as const) {
      expect(formatMoney(12000, 'MYR', 100, locale)).toBe('RM\u00a0120.00');
      expect(formatMoney(2550, 'SGD', 100, locale)).toBe('SGD\u00a025.50');
      expect(formatMoney(2550, 'USD', 100, locale)).toBe('USD\u00a025.50');
      expect(formatMoney(5000, 'JPY', 1, locale)).toBe('JPY\u00a05,000');
      expect(formatMoney(990, 'EUR', 100, locale)).toBe('€9.90');
    }
  });

  it('escapes every value by default and keeps the CSP nonce on style and script', () => {
    const html = hostedErrorPage(
      { nonce: 'n0nce', locale: 'th', title: '<t>', query: { test_mode: 'true', locale: 'th' } },
      '<b>"x"</b>',
      "it's <script>",
    );
    expect(html).toContain('<html lang="th">');
    expect(html).toContain('&lt;b&gt;&quot;x&quot;&lt;/b&gt;');
    expect(html).toContain('it&#39;s &lt;script&gt;');
    expect(html).not.toContain('<b>');
    expect(html).toContain('<style nonce="n0nce">');
    expect(html).toContain('href="?test_mode=true&amp;locale=en"');
    expect(html).toMatch(/href="\?test_mode=true&amp;locale=th"[^>]*aria-current="true"/);
    const withScript = renderHostedPage('@error', { nonce: 'abc', locale: 'en', title: 'x', script: 'go();' }, {});
    expect(withScript).toContain('<script nonce="abc">go();</script>');
  });
});
