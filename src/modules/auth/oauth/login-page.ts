import { hostedErrorPage, registerHostedTemplate, renderHostedPage } from '../../../common/http/hosted-page.js';
import { LOGIN_TEMPLATE } from './templates/login.template.js';

registerHostedTemplate('@login', LOGIN_TEMPLATE);

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

const STYLE = `
  main { max-width: 22rem; }
  p.client { color: #475569; margin: 0 0 1rem; }
`;

/**
 * Server-rendered sign-in page of the authorization endpoint: no script, every value escaped by
 * the template engine. Its CSP admits inline style, so it carries no nonce.
 */
export function loginPage(input: {
  action: string;
  clientName: string;
  params: AuthorizeParams;
  email?: string;
  error?: string;
}): string {
  const hidden = AUTHORIZE_PARAMS.filter((name) => input.params[name] !== undefined).map((name) => ({
    name,
    value: input.params[name],
  }));
  return renderHostedPage(
    '@login',
    { nonce: '', locale: 'en', title: 'Sign in - Wallet', style: STYLE, brand: 'Wallet' },
    { action: input.action, clientName: input.clientName, hidden, email: input.email ?? '', error: input.error },
  );
}

/** A page for requests that cannot be sent back to the client (unknown client, unregistered redirect URI). */
export function errorPage(message: string): string {
  return hostedErrorPage(
    { nonce: '', locale: 'en', title: 'Sign-in error - Wallet', brand: 'Wallet' },
    'This sign-in link is not valid',
    message,
  );
}
