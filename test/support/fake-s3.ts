import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { freePort } from './processes.js';

/** One object the fake holds: its bytes and the headers it was stored with. */
export interface FakeS3Object {
  body: Buffer;
  contentType: string;
  /** `x-amz-meta-*` headers, names lower case without the prefix. */
  metadata: Record<string, string>;
}

/** What the fake saw of one request, and how it answered. */
export interface FakeS3Request {
  method: string;
  path: string;
  authorization: string | undefined;
  contentSha256: string | undefined;
  status: number;
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const encode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * A local S3-compatible server for the FILE_STORAGE=s3 tests, written from the Amazon S3 API
 * reference: path-style `/<bucket>/<key>` PutObject (200 with an ETag), GetObject and HeadObject
 * (Content-Type, Content-Length, ETag, Last-Modified, `x-amz-meta-*`; 404 NoSuchKey),
 * DeleteObject (204, also for a missing key), XML error bodies. Every request must carry a
 * Signature Version 4 Authorization header that this fake recomputes with the secret it knows
 * (403 SignatureDoesNotMatch otherwise, AccessDenied without one), and its
 * `x-amz-content-sha256` must be the SHA-256 of the body received (400 XAmzContentSHA256Mismatch):
 * the signed payload hash, as S3 checks it.
 */
export class FakeS3 {
  readonly objects = new Map<string, FakeS3Object>();
  readonly requests: FakeS3Request[] = [];
  private server!: Server;
  port = 0;

  constructor(
    readonly bucket: string,
    readonly accessKeyId: string,
    readonly secretAccessKey: string,
    readonly region = 'us-east-1',
  ) {}

  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    this.port = await freePort();
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://fake');
    const seen: FakeS3Request = {
      method: req.method ?? 'GET',
      path: url.pathname,
      authorization: req.headers.authorization,
      contentSha256: req.headers['x-amz-content-sha256'] as string | undefined,
      status: 0,
    };
    this.requests.push(seen);
    const answer = (status: number, code?: string, headers: Record<string, string> = {}, payload?: Buffer) => {
      seen.status = status;
      if (code) {
        const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${code}</Message><Resource>${url.pathname}</Resource><RequestId>fake</RequestId></Error>`;
        res.writeHead(status, { 'content-type': 'application/xml' }).end(req.method === 'HEAD' ? undefined : xml);
        return;
      }
      res.writeHead(status, headers).end(req.method === 'HEAD' ? undefined : payload);
    };

    const refusal = this.checkSignature(req, url, body);
    if (refusal) return answer(refusal.status, refusal.code);
    const [, bucket, ...rest] = url.pathname.split('/');
    if (bucket !== this.bucket) return answer(404, 'NoSuchBucket');
    const key = rest.map((s) => decodeURIComponent(s)).join('/');
    if (!key) return answer(400, 'InvalidRequest');

    if (req.method === 'PUT') {
      const metadata: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (name.startsWith('x-amz-meta-')) metadata[name.slice('x-amz-meta-'.length)] = String(value);
      }
      this.objects.set(key, {
        body,
        contentType: String(req.headers['content-type'] ?? 'binary/octet-stream'),
        metadata,
      });
      return answer(200, undefined, { etag: `"${createHash('md5').update(body).digest('hex')}"` });
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      const object = this.objects.get(key);
      if (!object) return answer(404, 'NoSuchKey');
      const headers: Record<string, string> = {
        'content-type': object.contentType,
        'content-length': String(object.body.length),
        etag: `"${createHash('md5').update(object.body).digest('hex')}"`,
        'last-modified': new Date().toUTCString(),
      };
      for (const [name, value] of Object.entries(object.metadata)) headers[`x-amz-meta-${name}`] = value;
      return answer(200, undefined, headers, object.body);
    }
    if (req.method === 'DELETE') {
      this.objects.delete(key);
      return answer(204);
    }
    return answer(405, 'MethodNotAllowed');
  }

  /** Signature Version 4 as S3 checks it; null when the request is signed by our key over the body it carries. */
  private checkSignature(req: IncomingMessage, url: URL, body: Buffer): { status: number; code: string } | null {
    const auth =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
        req.headers.authorization ?? '',
      );
    if (!auth) return { status: 403, code: 'AccessDenied' };
    const [, keyId, date, region, signedHeaders, signature] = auth;
    if (keyId !== this.accessKeyId) return { status: 403, code: 'InvalidAccessKeyId' };
    if (region !== this.region) return { status: 400, code: 'AuthorizationHeaderMalformed' };
    const payloadHash = req.headers['x-amz-content-sha256'];
    const amzDate = req.headers['x-amz-date'];
    if (typeof amzDate !== 'string' || !amzDate.startsWith(date)) return { status: 403, code: 'AccessDenied' };
    if (payloadHash !== sha256(body)) return { status: 400, code: 'XAmzContentSHA256Mismatch' };
    const names = signedHeaders.split(';');
    for (const required of ['host', 'x-amz-content-sha256', 'x-amz-date']) {
      if (!names.includes(required)) return { status: 403, code: 'AccessDenied' };
    }
    const canonical = [
      req.method,
      url.pathname
        .split('/')
        .map((s) => encode(decodeURIComponent(s)))
        .join('/'),
      [...url.searchParams.entries()]
        .map(([k, v]) => `${encode(k)}=${encode(v)}`)
        .sort()
        .join('&'),
      names.map((n) => `${n}:${String(req.headers[n] ?? '').trim()}\n`).join(''),
      signedHeaders,
      payloadHash,
    ].join('\n');
    const scope = `${date}/${region}/s3/aws4_request`;
    const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
    const key = [date, region, 's3', 'aws4_request'].reduce<Buffer | string>(
      (k, part) => hmac(k, part),
      `AWS4${this.secretAccessKey}`,
    );
    const expected = createHmac('sha256', key).update(toSign).digest('hex');
    return expected === signature ? null : { status: 403, code: 'SignatureDoesNotMatch' };
  }
}
