/**
 * What the remote CLI commands (`events:listen`, `events:trigger`) take from the environment, so a
 * secret key never has to appear on a command line (where `ps`, shell history and CI logs keep it).
 * A flag given on the command line wins over its variable, as with the Stripe CLI's `--api-key` and
 * `STRIPE_API_KEY`.
 */
export interface CliConnection {
  /** WALLET_API_URL: the wallet base URL, `https://host/api/v1/{app}/platform/wallet`. */
  baseUrl: string | undefined;
  /** WALLET_API_KEY: a test-mode secret key. */
  key: string | undefined;
}

export const CLI_VARIABLES = { baseUrl: 'WALLET_API_URL', key: 'WALLET_API_KEY' } as const;

export function loadCliConnection(env: Record<string, string | undefined> = process.env): CliConnection {
  return {
    baseUrl: env[CLI_VARIABLES.baseUrl]?.trim() || undefined,
    key: env[CLI_VARIABLES.key]?.trim() || undefined,
  };
}
