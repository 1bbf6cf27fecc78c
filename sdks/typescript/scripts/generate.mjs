// Regenerates src/generated/wallet-api.ts from the service's OpenAPI document (by default the
// repository's dist/openapi.json, written by `npm run openapi:write`; or the file or URL given).
// The generated file is committed; test/e2e/sdk/sdk.e2e-spec.ts fails when it is stale.
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const input = process.argv[2] ?? join(root, 'dist/openapi.json');
const output = join(here, '../src/generated/wallet-api.ts');
execFileSync(
  join(root, 'node_modules/.bin/openapi-typescript'),
  [input, '--default-non-nullable', 'false', '-o', output],
  { stdio: 'inherit' },
);
