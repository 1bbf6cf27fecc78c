import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, createUser, pkcePair, signIn } from '../../factories/auth.js';
import { scanLogsForSecrets } from '../../support/secret-scan.mjs';
import { createTenant, startApp, type TestApp } from '../../support/harness.js';

describe('log redaction', () => {
  let t: TestApp;
  let dir: string;
  const logFile = () => join(dir, 'app-redaction.log');

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wallet-redaction-'));
    t = await startApp({ rateLimit: false, env: { LOG_LEVEL: 'info', LOG_FILE: join(dir, 'app-redaction.log') } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("logs the sign-in redirect's Location with the code masked and the state kept", async () => {
    const tenant = await createTenant(t);
    const user = await createUser(t, { member: tenant });
    const client = await createClient(t, 'public');
    const signedIn = await signIn(t, {
      clientId: client.client_id,
      redirectUri: client.redirect_uris[0],
      user,
      challenge: pkcePair().challenge,
      state: 'state-kept-42',
    });
    const code = signedIn.location?.searchParams.get('code');
    expect(code).toMatch(/^wac_/);

    const log = readFileSync(logFile(), 'utf8');
    expect(log).not.toContain(code!);
    expect(log).not.toContain(user.password);
    expect(log).not.toContain(tenant.keys.test);
    const redirect = log
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { res?: { statusCode: number; location?: string } })
      .find((line) => line.res?.location);
    expect(redirect?.res?.location).toMatch(/[?&]code=\[redacted\]/);
    expect(redirect?.res?.location).toContain('state=state-kept-42');
  });

  it('masks credential query parameters in logged URLs', async () => {
    await t.http.get('/healthz?code=wac_secret-code-123&state=s1&refresh_token=wrt_secret-456');
    const log = readFileSync(logFile(), 'utf8');
    expect(log).not.toContain('wac_secret-code-123');
    expect(log).not.toContain('wrt_secret-456');
    expect(log).toContain('state=s1');
  });

  it('has a secret scan that finds a planted secret, token-shaped or not', () => {
    const scanDir = mkdtempSync(join(tmpdir(), 'wallet-scan-'));
    try {
      writeFileSync(join(scanDir, 'secrets-1.txt'), 'sk_test_planted0123456789\npass word!42\nnever-logged-123\n');
      writeFileSync(join(scanDir, 'app-1.log'), '{"msg":"x sk_test_planted0123456789 y"}\n{"msg":"pass word!42"}\n');
      const { hits, secrets } = scanLogsForSecrets(scanDir);
      expect(secrets).toBe(3);
      expect(hits.map((h: { secret: string }) => h.secret).sort()).toEqual([
        'pass word!42',
        'sk_test_planted0123456789',
      ]);
    } finally {
      rmSync(scanDir, { recursive: true, force: true });
    }
  });
});
