const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (value: string) => value.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** The authorization request parameters the login form carries through to its POST. */
export const AUTHORIZE_PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;
export type AuthorizeParams = Partial<Record<(typeof AUTHORIZE_PARAMS)[number], string>>;

/** Server-rendered sign-in page of the authorization endpoint: no script, every value escaped. */
export function loginPage(input: {
  action: string;
  clientName: string;
  params: AuthorizeParams;
  email?: string;
  error?: string;
}): string {
  const hidden = AUTHORIZE_PARAMS.filter((name) => input.params[name] !== undefined)
    .map((name) => `<input type="hidden" name="${name}" value="${escape(input.params[name]!)}">`)
    .join('\n      ');
  const error = input.error ? `<p class="error" role="alert">${escape(input.error)}</p>` : '';
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Sign in - Wallet</title>
  <style>
    body { font-family: system-ui, sans-serif; background: #f4f5f7; display: flex; justify-content: center; padding-top: 10vh; margin: 0; }
    main { background: #fff; padding: 2rem; border-radius: 8px; box-shadow: 0 1px 4px rgba(0,0,0,.12); width: 20rem; }
    h1 { font-size: 1.25rem; margin: 0 0 .25rem; }
    p.client { color: #555; margin: 0 0 1.5rem; }
    label { display: block; font-weight: 600; margin-top: 1rem; }
    input[type=email], input[type=password] { width: 100%; box-sizing: border-box; padding: .5rem; margin-top: .25rem; font-size: 1rem; }
    button { margin-top: 1.5rem; width: 100%; padding: .6rem; font-size: 1rem; background: #1a56db; color: #fff; border: 0; border-radius: 4px; cursor: pointer; }
    .error { color: #b91c1c; background: #fef2f2; padding: .5rem; border-radius: 4px; }
  </style>
</head>
<body>
  <main>
    <h1>Sign in</h1>
    <p class="client">to continue to ${escape(input.clientName)}</p>
    ${error}
    <form method="post" action="${escape(input.action)}">
      ${hidden}
      <label for="email">Email</label>
      <input id="email" name="email" type="email" autocomplete="username" required value="${escape(input.email ?? '')}">
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required>
      <button type="submit">Sign in</button>
    </form>
  </main>
</body>
</html>
`;
}

/** A page for requests that cannot be sent back to the client (unknown client, unregistered redirect URI). */
export function errorPage(message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign-in error - Wallet</title></head>
<body><main><h1>This sign-in link is not valid</h1><p role="alert">${escape(message)}</p></main></body></html>
`;
}
