import { errorPage, loginPage } from './login-page.js';

describe('sign-in page', () => {
  it('escapes every value it echoes, so a crafted authorization request cannot inject markup', () => {
    const evil = '"><script>alert(1)</script>';
    const html = loginPage({
      action: '/oauth/authorize',
      clientName: evil,
      params: { state: evil, client_id: 'c' },
      email: evil,
      error: evil,
    });
    expect(html).not.toContain('<script>');
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(errorPage(evil)).not.toContain('<script>');
  });

  it('carries only the authorization parameters it knows as hidden fields', () => {
    const html = loginPage({
      action: '/oauth/authorize',
      clientName: 'App',
      params: { client_id: 'c1', code_challenge: 'abc', code_challenge_method: 'S256' },
    });
    expect(html.match(/type="hidden"/g)).toHaveLength(3);
    expect(html).toContain('<label for="email">Email</label>');
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toContain('<button type="submit">Sign in</button>');
  });
});
