import { inChunks, MB10, PNG, sha256, sized, storeGenerated } from '../../factories/files.js';
import { FakeS3 } from '../../support/fake-s3.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';

/**
 * FILE_STORAGE=s3 (issue 36, item 2): the files API with its bytes in an S3-compatible bucket, a
 * local fake S3 server (test/support/fake-s3.ts) that checks every request's Signature Version 4
 * and signed payload hash. The API's behaviour is the database storage's (files.e2e-spec.ts).
 */
/** Streamed files go up in multipart uploads of this part size here (production: 8 MiB, S3's minimum is 5 MiB). */
const PART = 256 * 1024;

describe('files in an S3-compatible bucket (FILE_STORAGE=s3, fake S3 on loopback)', () => {
  let s3: FakeS3;
  let t: TestApp;
  let tenant: Tenant;
  /** The settings that point a service at the fake bucket. */
  const s3Env = () => ({
    FILE_STORAGE: 's3',
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: s3.bucket,
    S3_REGION: s3.region,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
  });

  beforeAll(async () => {
    s3 = await new FakeS3(
      'wallet-files',
      'AKIAFAKEWALLET000001',
      'fakeSecretKeyForTheWalletS3Tests0000000',
      'eu-central-1',
    ).start();
    s3.minPartSize = PART;
    t = await startApp({ rateLimit: false, env: { ...s3Env(), FILE_STORAGE_PART_SIZE: String(PART) } });
    tenant = await createTenant(t);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.stop();
  });

  const upload = (bytes: Buffer, filename: string, who: Tenant = tenant, mode: 'test' | 'live' = 'test') =>
    t.http
      .post(who.path('/files'))
      .set(who.as(mode))
      .field('purpose', 'dispute_evidence')
      .attach('file', bytes, { filename, contentType: 'application/octet-stream' });
  const contents = (id: string, who: Tenant = tenant, mode: 'test' | 'live' = 'test') =>
    t.http
      .get(who.path(`/files/${id}/contents`))
      .set(who.as(mode))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });

  // As in files.e2e-spec.ts: the embedded database's run (a loaded 2-core CI) round-trips 1 MB; 10 MB is proved on PostgreSQL.
  const roundTrip = process.env.WALLET_TEST_DATABASE === 'embedded' ? 1024 * 1024 : MB10;
  it(`stores exactly 10 MB (embedded database: 1 MB), a PNG named .pdf, in the bucket under the mode and application, signed over its SHA-256, and serves it back byte for byte`, async () => {
    const bytes = sized(PNG, roundTrip, 88172645);
    const res = await upload(bytes, 'scan.pdf');
    expect({ status: res.status, body: res.body }).toMatchObject({
      status: 200,
      body: { object: 'file', size: roundTrip, type: 'png', filename: 'scan.pdf', livemode: false },
    });
    const key = `wallet_test/${tenant.applicationId}/${res.body.id}`;
    const put = s3.requests.find((r) => r.method === 'PUT')!;
    expect(put).toMatchObject({ path: `/wallet-files/${key}`, status: 200, contentSha256: sha256(bytes) });
    expect(put.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAFAKEWALLET000001\/\d{8}\/eu-central-1\/s3\/aws4_request,SignedHeaders=content-length;content-type;host;x-amz-content-sha256;x-amz-date;x-amz-meta-sha256,Signature=[0-9a-f]{64}$/,
    );
    const stored = s3.objects.get(key)!;
    expect(stored.body.equals(bytes)).toBe(true);
    expect(stored).toMatchObject({ contentType: 'image/png', metadata: { sha256: sha256(bytes) } });

    const down = await contents(res.body.id);
    expect(down.status).toBe(200);
    expect(down.headers['content-type']).toBe('image/png');
    expect(sha256(down.body as Buffer)).toBe(sha256(bytes));
  });

  it('refuses 10 MB + 1 byte with 413 E5301 before S3 is called', async () => {
    const before = s3.requests.length;
    const tooBig = await upload(sized(PNG, MB10 + 1, 88172645), 'big.png');
    expect(tooBig.status).toBe(413);
    expectErrorObject(tooBig.body, 'E5301');
    expect(s3.requests.length).toBe(before);
  });

  it("keeps live bytes under wallet_live; another application's file id is 404 E4004; bytes changed in the bucket are 503 E5310, never served", async () => {
    const live = await upload(PNG, 'live.png', tenant, 'live');
    expect(live.status).toBe(200);
    const key = `wallet_live/${tenant.applicationId}/${live.body.id}`;
    expect(s3.objects.has(key)).toBe(true);
    expect((await contents(live.body.id, tenant, 'live')).body).toEqual(PNG);

    const other = await createTenant(t);
    const theirs = await contents(live.body.id, other, 'live');
    expect(theirs.status).toBe(404);
    expectErrorObject(JSON.parse((theirs.body as Buffer).toString()), 'E4004');

    s3.objects.get(key)!.body = Buffer.concat([PNG, Buffer.from([0])]);
    const tampered = await contents(live.body.id, tenant, 'live');
    expect(tampered.status).toBe(503);
    expectErrorObject(JSON.parse((tampered.body as Buffer).toString()), 'E5310');
  });

  it('a bucket that refuses the signature (a wrong secret) is 503 E5310 and leaves no file behind', async () => {
    const wrong = await startApp({ rateLimit: false, env: { ...s3Env(), S3_SECRET_ACCESS_KEY: 'notTheSecret' } });
    try {
      const res = await wrong.http
        .post(tenant.path('/files'))
        .set(tenant.as('test'))
        .field('purpose', 'dispute_evidence')
        .attach('file', PNG, { filename: 'x.png', contentType: 'image/png' });
      expect(res.status).toBe(503);
      expectErrorObject(res.body, 'E5310');
      expect(s3.requests.at(-1)).toMatchObject({ method: 'PUT', status: 403 });
      const list = await wrong.http.get(tenant.path('/files?q=x.png')).set(tenant.as('test'));
      expect(list.body.data.filter((f: { filename: string }) => f.filename === 'x.png')).toEqual([]);
    } finally {
      await wrong.close();
    }
  });

  // Over 1 MB a download is streamed part by part and checked on the way (files.service.ts).
  const generated = 1024 * 1024 + 3 * PART + 17;
  it('stores a streamed file as a multipart upload (create, parts in order, complete) and serves it back byte for byte', async () => {
    const bytes = sized(PNG, generated, 3141592);
    const before = s3.requests.length;
    const file = await storeGenerated(t.app, tenant.applicationId, inChunks(bytes));
    expect(file.size).toBe(generated);
    const key = `wallet_test/${tenant.applicationId}/${file.id}`;
    const parts = Math.ceil(generated / PART);
    const seen = s3.requests
      .slice(before)
      .map((r) => `${r.method} ${r.query.replace(/uploadId=[^&]+/, 'uploadId=U')} ${r.status}`);
    expect(seen).toEqual([
      'POST uploads 200',
      ...Array.from({ length: parts }, (_, i) => `PUT partNumber=${i + 1}&uploadId=U 200`),
      'POST uploadId=U 200',
    ]);
    expect(s3.objects.get(key)!.body.equals(bytes)).toBe(true);
    expect(s3.uploads.size).toBe(0);

    const down = await contents(file.id);
    expect(down.status).toBe(200);
    expect(down.headers['content-length']).toBe(String(generated));
    expect(sha256(down.body as Buffer)).toBe(sha256(bytes));
  });

  it('aborts the multipart upload when a part is refused or the producer fails, leaving no object and no parts', async () => {
    const objects = s3.objects.size;
    s3.failPart = 2;
    try {
      await expect(storeGenerated(t.app, tenant.applicationId, inChunks(sized(PNG, 4 * PART)))).rejects.toMatchObject({
        definition: { code: 'E5310' },
      });
    } finally {
      s3.failPart = null;
    }
    expect(s3.requests.slice(-2).map((r) => [r.method, r.status])).toEqual([
      ['PUT', 500],
      ['DELETE', 204],
    ]);

    async function* failing(): AsyncGenerator<Buffer> {
      yield* inChunks(sized(PNG, 3 * PART));
      throw new Error('the ledger went away');
    }
    await expect(storeGenerated(t.app, tenant.applicationId, failing())).rejects.toThrow('the ledger went away');
    expect(s3.requests.at(-1)).toMatchObject({ method: 'DELETE', status: 204 });
    expect(s3.requests.at(-1)!.query).toMatch(/^uploadId=/);
    expect([s3.objects.size, s3.uploads.size]).toEqual([objects, 0]);
  });
});
