import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_VARIABLES, loadCliConnection } from './cli.config.js';

describe('the remote CLI connection', () => {
  it('reads the base URL and the key from WALLET_API_URL and WALLET_API_KEY, blank as unset', () => {
    expect(
      loadCliConnection({
        WALLET_API_URL: ' https://pay.example.com/api/v1/a/platform/wallet ',
        WALLET_API_KEY: 'sk_test_x',
      }),
    ).toEqual({
      baseUrl: 'https://pay.example.com/api/v1/a/platform/wallet',
      key: 'sk_test_x',
    });
    expect(loadCliConnection({ WALLET_API_URL: '', WALLET_API_KEY: '  ' })).toEqual({
      baseUrl: undefined,
      key: undefined,
    });
  });

  it('documents its variables in the README configuration table', () => {
    const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8');
    const documented = new Set([...readme.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]));
    expect(Object.values(CLI_VARIABLES).filter((name) => !documented.has(name))).toEqual([]);
  });
});
