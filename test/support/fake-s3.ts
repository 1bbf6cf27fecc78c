import { createHash, createHmac } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { closeNow, listenOnLoopback } from './processes.js';

/** One object the fake holds: its bytes and the headers it was stored with. */
export interface FakeS3Object {
  body: Buffer;
  contentType: string;
  /** `x-amz-meta-*` headers, names lower case without the prefix. */
  metadata: Record<string, string>;
}

/** A multipart upload in progress: the parts received so far, by part number. */
export interface FakeS3Upload {
  key: string;
  contentType: string;
  metadata: Record<string, string>;
  parts: Map<number, Buffer>;
}

/** What the fake saw of one request, and how it answered. */
export interface FakeS3Request {
  method: string;
  path: string;
  /** The query string without `?` (`uploads`, `partNumber=2&uploadId=…`), empty for none. */
  query: string;
  authorization: string | undefined;
  contentSha256: string | undefined;
  status: number;
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const encode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const md5Etag = (body: Buffer) => `"${createHash('md5').update(body).digest('hex')}"`;

function metadataOf(req: IncomingMessage): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (name.startsWith('x-amz-meta-')) metadata[name.slice('x-amz-meta-'.length)] = String(value);
  }
  return metadata;
}

/**
 * A local S3-compatible server for the FILE_STORAGE=s3 tests, written from the Amazon S3 API
 * reference: path-style `/<bucket>/<key>` PutObject (200 with an ETag), GetObject and HeadObject
 * (Content-Type, Content-Length, ETag, Last-Modified, `x-amz-meta-*`; 404 NoSuchKey),
 * DeleteObject (204, also for a missing key), XML error bodies. Every request must carry a
 * Signature Version 4 Authorization header that this fake recomputes with the secret it knows
 * (403 SignatureDoesNotMatch otherwise, AccessDenied without one), and its
 * `x-amz-content-sha256` must be the SHA-256 of the body received (400 XAmzContentSHA256Mismatch):
 * the signed payload hash, as S3 checks it.
 *
 * Multipart uploads as the API reference describes them: CreateMultipartUpload (`POST ?uploads`,
 * an InitiateMultipartUploadResult with the UploadId), UploadPart (`PUT ?partNumber=N&uploadId=…`,
 * the part's ETag), CompleteMultipartUpload (`POST ?uploadId=…` with the parts' numbers and ETags,
 * in ascending order: InvalidPartOrder, InvalidPart, EntityTooSmall for a part but the last under
 * `minPartSize`, NoSuchUpload) and AbortMultipartUpload (`DELETE ?uploadId=…`, 204). The object
 * exists only once completed. `failPart` makes UploadPart of that part number answer 500.
 */
export class FakeS3 {
  readonly objects = new Map<string, FakeS3Object>();
  readonly uploads = new Map<string, FakeS3Upload>();
  readonly requests: FakeS3Request[] = [];
  /** S3 refuses a part under 5 MiB (but the last) when the upload is completed; tests may lower it. */
  minPartSize = 5 * 1024 * 1024;
  /** UploadPart of this part number answers 500 InternalError (an S3 failing mid-upload). */
  failPart: number | null = null;
  private uploadCount = 0;
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
    ({ server: this.server, port: this.port } = await listenOnLoopback((req, res) => void this.handle(req, res)));
    return this;
  }

  async stop(): Promise<void> {
    await closeNow(this.server);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://fake');
    const seen: FakeS3Request = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.search.replace(/^\?/, ''),
      authorization: req.headers.authorization,
      contentSha256: req.headers['x-amz-content-sha256'] as string | undefined,
      status: 0,
    };
    this.requests.push(seen);
    const answer = (status: number, code?: string, headers: Record<string, string> = {}, payload?: Buffer | string) => {
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

    const uploadId = url.searchParams.get('uploadId');
    if (req.method === 'POST' && url.searchParams.has('uploads')) {
      const id = `fake-upload-${++this.uploadCount}`;
      this.uploads.set(id, {
        key,
        contentType: String(req.headers['content-type'] ?? 'binary/octet-stream'),
        metadata: metadataOf(req),
        parts: new Map(),
      });
      return answer(
        200,
        undefined,
        { 'content-type': 'application/xml' },
        `<?xml version="1.0" encoding="UTF-8"?>\n<InitiateMultipartUploadResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`,
      );
    }
    if (uploadId !== null) {
      const upload = this.uploads.get(uploadId);
      if (!upload || upload.key !== key) return answer(404, 'NoSuchUpload');
      if (req.method === 'PUT') {
        const number = Number(url.searchParams.get('partNumber'));
        if (!Number.isInteger(number) || number < 1 || number > 10_000) return answer(400, 'InvalidArgument');
        if (number === this.failPart) return answer(500, 'InternalError');
        upload.parts.set(number, body);
        return answer(200, undefined, { etag: md5Etag(body) });
      }
      if (req.method === 'DELETE') {
        this.uploads.delete(uploadId);
        return answer(204);
      }
      if (req.method === 'POST') return this.complete(uploadId, upload, body.toString('utf8'), answer);
      return answer(405, 'MethodNotAllowed');
    }

    if (req.method === 'PUT') {
      const metadata = metadataOf(req);
      this.objects.set(key, {
        body,
        contentType: String(req.headers['content-type'] ?? 'binary/octet-stream'),
        metadata,
      });
      return answer(200, undefined, { etag: md5Etag(body) });
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

  /** CompleteMultipartUpload: the listed parts, in ascending order, each as uploaded, joined into the object. */
  private complete(
    uploadId: string,
    upload: FakeS3Upload,
    xml: string,
    answer: (status: number, code?: string, headers?: Record<string, string>, payload?: string) => void,
  ): void {
    const listed = [...xml.matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map(([, part]) => ({
      number: Number(/<PartNumber>(\d+)<\/PartNumber>/.exec(part)?.[1]),
      etag: (/<ETag>([^<]*)<\/ETag>/.exec(part)?.[1] ?? '').replace(/&quot;/g, '"'),
    }));
    if (listed.length === 0) return answer(400, 'MalformedXML');
    if (listed.some((p, i) => i > 0 && p.number <= listed[i - 1].number)) return answer(400, 'InvalidPartOrder');
    const bodies: Buffer[] = [];
    for (const [i, part] of listed.entries()) {
      const body = upload.parts.get(part.number);
      if (!body || md5Etag(body) !== part.etag) return answer(400, 'InvalidPart');
      if (i < listed.length - 1 && body.length < this.minPartSize) return answer(400, 'EntityTooSmall');
      bodies.push(body);
    }
    const body = Buffer.concat(bodies);
    this.objects.set(upload.key, { body, contentType: upload.contentType, metadata: upload.metadata });
    this.uploads.delete(uploadId);
    const etag = `"${createHash('md5')
      .update(Buffer.concat(bodies.map((b) => createHash('md5').update(b).digest())))
      .digest('hex')}-${bodies.length}"`;
    return answer(
      200,
      undefined,
      { 'content-type': 'application/xml' },
      `<?xml version="1.0" encoding="UTF-8"?>\n<CompleteMultipartUploadResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Location>${this.endpoint}/${this.bucket}/${upload.key}</Location><Bucket>${this.bucket}</Bucket><Key>${upload.key}</Key><ETag>${etag.replace(/"/g, '&quot;')}</ETag></CompleteMultipartUploadResult>`,
    );
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
