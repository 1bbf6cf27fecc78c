import { Readable } from 'node:stream';
import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { S3Config } from '../../../config/file-storage.config.js';
import { AppError } from '../../../common/errors/app-error.js';
import type { RequestContext } from '../../../common/context/request-context.js';
import { FileErrors } from '../files.errors.js';
import { FileStorage, inParts, type OpenedObject, type StoredObject } from './file-storage.js';
import { EMPTY_SHA256, sha256Hex, signV4, uriEncode } from './sigv4.js';

/** How long one S3 request may take before the upload or download is refused (E5310). */
const S3_TIMEOUT_MS = 30_000;
const SHA256_META = 'x-amz-meta-sha256';
/** Operations whose answer's body the caller reads itself. */
const READ_LATER = new Set(['GetObject', 'CreateMultipartUpload', 'CompleteMultipartUpload']);

/**
 * FILE_STORAGE=s3: the bytes in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2), through
 * the S3 REST API (PutObject, GetObject, DeleteObject) signed with Signature Version 4 over the
 * payload's SHA-256 (the store recomputes it and refuses a body changed on the way). Objects are
 * named `<schema>/<key>` (`wallet_test/…`, `wallet_live/…`), so the two modes never share a name
 * in one bucket, as they never share a table. The SHA-256 travels as user metadata and is checked
 * again on every download. Called by FilesService outside any database transaction.
 *
 * A streamed file (`putStream`) longer than one part is a multipart upload
 * (CreateMultipartUpload, UploadPart of FILE_STORAGE_PART_SIZE bytes one at a time,
 * CompleteMultipartUpload; AbortMultipartUpload when anything fails, so no parts are left billed):
 * the object appears only when completed. Its SHA-256 is known only at the end, so it is not in the
 * object's metadata: FilesService checks a download against the file row's digest.
 */
export class S3FileStorage extends FileStorage {
  private readonly logger = new Logger(S3FileStorage.name);

  constructor(
    private readonly config: S3Config,
    private readonly context: RequestContext,
    private readonly partSize: number,
    private readonly now: () => Date = () => new Date(),
  ) {
    super();
  }

  async put(key: string, body: Buffer, contentType: string): Promise<StoredObject> {
    const name = `wallet_${this.context.mode}/${key}`;
    const sha256 = sha256Hex(body);
    const res = await this.send('PUT', name, sha256, body, {
      'content-type': contentType,
      'content-length': String(body.length),
      [SHA256_META]: sha256,
    });
    await this.expectOk(res, 'PutObject', name);
    return { key: name, contentType, size: body.length, sha256 };
  }

  async putStream(key: string, body: AsyncIterable<Buffer>, contentType: string): Promise<StoredObject> {
    const parts = inParts(body, this.partSize)[Symbol.asyncIterator]();
    const next = await parts.next();
    // A copy: the next part reuses the memory of this one.
    const first = next.done ? Buffer.alloc(0) : Buffer.from(next.value);
    const second = next.done ? next : await parts.next();
    if (second.done) return this.put(key, first, contentType);

    const name = `wallet_${this.context.mode}/${key}`;
    const created = await this.send('POST', name, EMPTY_SHA256, undefined, { 'content-type': contentType }, 'uploads');
    await this.expectOk(created, 'CreateMultipartUpload', name);
    const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(await created.text())?.[1];
    if (!uploadId) throw this.refused('CreateMultipartUpload', name, 'no UploadId');
    const hash = createHash('sha256');
    let size = 0;
    const etags: string[] = [];
    try {
      const rest = { [Symbol.asyncIterator]: () => parts };
      for await (const part of chain([first, second.value], rest)) {
        hash.update(part);
        size += part.length;
        const number = etags.length + 1;
        const res = await this.send(
          'PUT',
          name,
          sha256Hex(part),
          part,
          { 'content-length': String(part.length) },
          `partNumber=${number}&uploadId=${encodeURIComponent(uploadId)}`,
        );
        await this.expectOk(res, 'UploadPart', name);
        const etag = res.headers.get('etag');
        if (!etag) throw this.refused('UploadPart', name, 'no ETag');
        etags.push(etag);
      }
      const xml = Buffer.from(
        `<CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${etags
          .map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${escapeXml(etag)}</ETag></Part>`)
          .join('')}</CompleteMultipartUpload>`,
      );
      const completed = await this.send(
        'POST',
        name,
        sha256Hex(xml),
        xml,
        {
          'content-type': 'application/xml',
          'content-length': String(xml.length),
        },
        `uploadId=${encodeURIComponent(uploadId)}`,
      );
      await this.expectOk(completed, 'CompleteMultipartUpload', name);
      // S3 may answer 200 and still fail the completion, with an <Error> body.
      const answer = await completed.text();
      if (!answer.includes('<CompleteMultipartUploadResult')) {
        throw this.refused('CompleteMultipartUpload', name, /<Code>([^<]+)<\/Code>/.exec(answer)?.[1] ?? 'no result');
      }
    } catch (error) {
      await this.abort(name, uploadId);
      throw error;
    }
    return { key: name, contentType, size, sha256: hash.digest('hex') };
  }

  /** GetObject, its body streamed; the timeout covers the answer's headers, not the whole download. */
  async open(key: string): Promise<OpenedObject | null> {
    const res = await this.send('GET', key, EMPTY_SHA256);
    if (res.status === 404) {
      await res.arrayBuffer();
      return null;
    }
    await this.expectOk(res, 'GetObject', key);
    const contentType = res.headers.get('content-type') ?? 'application/octet-stream';
    const size = Number(res.headers.get('content-length'));
    const body = res.body ? Readable.fromWeb(res.body as import('node:stream/web').ReadableStream) : Readable.from([]);
    return { contentType, size, body };
  }

  async delete(key: string): Promise<void> {
    const res = await this.send('DELETE', key, EMPTY_SHA256);
    if (res.status === 404) return void (await res.arrayBuffer());
    await this.expectOk(res, 'DeleteObject', key);
  }

  /** AbortMultipartUpload; a failure is logged (the bucket's lifecycle rule removes what is left). */
  private async abort(name: string, uploadId: string): Promise<void> {
    try {
      const res = await this.send(
        'DELETE',
        name,
        EMPTY_SHA256,
        undefined,
        {},
        `uploadId=${encodeURIComponent(uploadId)}`,
      );
      await this.expectOk(res, 'AbortMultipartUpload', name);
    } catch (err) {
      this.logger.warn({ err }, `S3 AbortMultipartUpload ${name}: the parts stay until the bucket's lifecycle rule`);
    }
  }

  private refused(operation: string, name: string, why: string): AppError {
    this.logger.error(`S3 ${operation} ${name}: ${why}`);
    return new AppError(FileErrors.E5310);
  }

  private async send(
    method: string,
    name: string,
    payloadSha256: string,
    body?: Buffer,
    headers: Record<string, string> = {},
    query = '',
  ): Promise<Response> {
    const url = objectUrl(this.config, name);
    url.search = query;
    const signed = signV4(
      { method, url, headers, payloadSha256, region: this.config.region, service: 's3', now: this.now() },
      this.config,
    );
    delete signed.host; // fetch sets it from the URL
    // The timeout covers the request and the answer's headers; a download's body then streams on.
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new Error('S3 request timed out')), S3_TIMEOUT_MS);
    try {
      return await fetch(url, {
        method,
        headers: signed,
        body: body ? new Uint8Array(body.buffer, body.byteOffset, body.length) : undefined,
        signal: timeout.signal,
      });
    } catch (err) {
      this.logger.warn({ err }, `S3 ${method} ${url.host}: no answer`);
      throw new AppError(FileErrors.E5310);
    } finally {
      clearTimeout(timer);
    }
  }

  private async expectOk(res: Response, operation: string, name: string): Promise<void> {
    if (res.ok) {
      if (res.bodyUsed === false && !READ_LATER.has(operation)) await res.arrayBuffer();
      return;
    }
    const text = await res.text().catch(() => '');
    const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1] ?? 'no error code';
    this.logger.error(`S3 ${operation} ${name}: ${res.status} ${code}`);
    throw new AppError(FileErrors.E5310);
  }
}

/** `endpoint/bucket/key` (path style) or `bucket.endpoint/key` (virtual-hosted style), the key encoded once. */
export function objectUrl(config: Pick<S3Config, 'endpoint' | 'bucket' | 'forcePathStyle'>, name: string): URL {
  const base = new URL(config.endpoint);
  const path = base.pathname.replace(/\/+$/, '');
  const encoded = uriEncode(name, true);
  if (config.forcePathStyle) return new URL(`${base.origin}${path}/${config.bucket}/${encoded}`);
  return new URL(`${base.protocol}//${config.bucket}.${base.host}${path}/${encoded}`);
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

async function* chain<T>(head: T[], rest: AsyncIterable<T>): AsyncGenerator<T> {
  yield* head;
  yield* rest;
}
