import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Characters secrets made of "token" characters consist of; logs are split on anything else. */
const TOKEN_CHARS = /^[A-Za-z0-9_-]+$/;

/**
 * Every secret the run's tests recorded (test/support/secrets.ts) against every log line the
 * run's apps wrote: the secrets that appear, with the file they appear in. Secrets made only of
 * token characters (keys, tokens, codes, account numbers) are matched against the log's tokens
 * through a Set, so the scan is one pass over the logs whatever the number of secrets; others
 * (passwords with punctuation) are searched as substrings.
 */
export function scanLogsForSecrets(dir) {
  const files = readdirSync(dir);
  const secrets = new Set();
  for (const file of files.filter((f) => f.startsWith('secrets-'))) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) if (line) secrets.add(line);
  }
  const tokenSecrets = new Set([...secrets].filter((s) => TOKEN_CHARS.test(s)));
  const otherSecrets = [...secrets].filter((s) => !TOKEN_CHARS.test(s));
  const hits = [];
  let bytes = 0;
  for (const file of files.filter((f) => f.startsWith('app-'))) {
    const text = readFileSync(join(dir, file), 'utf8');
    bytes += text.length;
    for (const token of text.split(/[^A-Za-z0-9_-]+/)) {
      if (tokenSecrets.has(token)) hits.push({ file, secret: token });
    }
    for (const secret of otherSecrets) if (text.includes(secret)) hits.push({ file, secret });
  }
  return { secrets: secrets.size, bytes, hits };
}

/** The teardown's check: throws (failing the run) when a secret was logged; the log directory is removed otherwise. */
export function checkLogsForSecrets(dir) {
  const { secrets, bytes, hits } = scanLogsForSecrets(dir);
  if (hits.length > 0) {
    const sample = hits
      .slice(0, 10)
      .map((h) => `${h.secret.slice(0, 6)}… in ${join(dir, h.file)}`)
      .join('\n  ');
    throw new Error(`secret scan: ${hits.length} secret(s) found in the test logs (kept in ${dir}):\n  ${sample}`);
  }
  if (process.env.WALLET_TEST_KEEP_LOGS !== 'true') rmSync(dir, { recursive: true, force: true });
  return { secrets, bytes };
}
