import { rmSync } from 'node:fs';
import { checkLogsForSecrets } from './secret-scan.mjs';

export default async function globalTeardown() {
  await globalThis.__WALLET_TEST_CLEANUP__?.();
  if (process.env.WALLET_TEST_OPENAPI_DIR)
    rmSync(process.env.WALLET_TEST_OPENAPI_DIR, { recursive: true, force: true });
  const dir = process.env.WALLET_TEST_LOG_DIR;
  if (dir) {
    const { secrets, bytes } = checkLogsForSecrets(dir);
    console.log(`secret scan: ${secrets} secrets, ${(bytes / 1e6).toFixed(1)} MB of logs, no secret logged`);
  }
}
