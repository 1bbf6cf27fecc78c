import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, createUser, pkcePair, signIn } from '../../factories/auth.js';
import { card, paymentIntentCheckout, tokenize } from '../../factories/checkout.js';
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

  it('never logs a card number: the vault body, a refused payment request, a URL path or query', async () => {
    const tenant = await createTenant(t);
    const pan = '4000056655665556';
    const checkout = await paymentIntentCheckout(t, tenant).then((r) => r.checkout);
    const session = { 'X-Session-Token': checkout.session, 'X-Country': 'TH' };
    const token = await tokenize(t, tenant, checkout, card(pan).card);
    expect(token.status).toBe(200);
    const refused = await t.http
      .post(tenant.path(`/checkouts/${checkout.id}/confirm`))
      .set(session)
      .send(card('4000 0566 5566 5556'));
    expect(refused.body.code).toBe('E2009');
    const query = await t.http.get(tenant.path(`/charges?q=4000%200566%205566%205556`)).set(tenant.as('test'));
    expect(query.body.code).toBe('E2009');
    await t.http.get(tenant.path(`/charges/${pan}`)).set(tenant.as('test'));

    const lines = readFileSync(logFile(), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { req?: { url?: string }; res?: { statusCode: number } });
    const text = JSON.stringify(lines);
    expect(text.replace(/\s|%20|-/g, '')).not.toContain(pan);
    const urls = lines.map((l) => l.req?.url).filter((u): u is string => typeof u === 'string');
    // The vault call is logged (method, URL, status), never with its body; a card number in a URL
    // path or query is masked. The E2009 refusals are answered by a middleware before pino-http,
    // and get their access line from the error filter (with the same URL masking).
    expect(urls).toContain(`/api/v1/${tenant.slug}/vault/tokens`);
    expect(urls).toContain(tenant.path('/charges/[redacted card number]'));
    // The refused query is logged too (its line comes from the error filter), with the number masked.
    expect(urls.filter((u) => u.startsWith(tenant.path('/charges?q=')))).toHaveLength(1);
  });

  it('writes one access line for a request refused before pino-http (body parsers, content type) and one for the rest', async () => {
    type Line = {
      msg?: string;
      req?: { id?: string; url?: string };
      res?: { statusCode?: number };
      responseTime?: number;
    };
    const linesOf = async (requestId: string): Promise<Line[]> => {
      // The line is written on the response's 'finish', which can come a turn after the client has the answer.
      for (let turn = 0; ; turn++) {
        const lines = readFileSync(logFile(), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Line)
          .filter((line) => line.req?.id === requestId);
        if (lines.length > 0 || turn >= 200) return lines;
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const path = '/api/v1/no-such-app/meter_events';
    const refused = [
      {
        res: await t.http.post(path).set('Content-Type', 'application/json').send('{"event_name": '),
        status: 400,
        code: 'E2001',
      },
      { res: await t.http.post(path).set('Content-Type', 'text/plain').send('event'), status: 415, code: 'E2002' },
      {
        res: await t.http
          .post(path)
          .set('Content-Type', 'application/json')
          .send(JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 1) })),
        status: 413,
        code: 'E2003',
      },
      // Passed pino-http (refused by routing): its own line, and no second one from the error filter.
      { res: await t.http.get('/api/v1/no-such-app/nothing-here'), status: 404, code: 'E4040' },
    ];
    for (const { res, status, code } of refused) {
      expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
      const requestId = res.headers['x-request-id'];
      expect(res.body.request_id).toBe(requestId);
      const lines = await linesOf(requestId);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ msg: 'request completed', res: { statusCode: status } });
      expect(lines[0].req?.url).toBe(res.status === 404 ? '/api/v1/no-such-app/nothing-here' : path);
      expect(typeof lines[0].responseTime).toBe('number');
    }
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
