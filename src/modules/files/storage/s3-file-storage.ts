import { Logger } from '@nestjs/common';
import type { S3Config } from '../../../config/file-storage.config.js';
import { AppError } from '../../../common/errors/app-error.js';
import type { RequestContext } from '../../../common/context/request-context.js';
import { FileErrors } from '../files.errors.js';
import { FileStorage, type StoredObject } from './file-storage.js';
import { EMPTY_SHA256, sha256Hex, signV4, uriEncode } from './sigv4.js';

/** How long one S3 request may take before the upload or download is refused (E5310). */
const S3_TIMEOUT_MS = 30_000;
const SHA256_META = 'x-amz-meta-sha256';

/**
 * FILE_STORAGE=s3: the bytes in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2), through
 * the S3 REST API (PutObject, GetObject, DeleteObject) signed with Signature Version 4 over the
 * payload's SHA-256 (the store recomputes it and refuses a body changed on the way). Objects are
 * named `<schema>/<key>` (`wallet_test/…`, `wallet_live/…`), so the two modes never share a name
 * in one bucket, as they never share a table. The SHA-256 travels as user metadata and is checked
 * again on every download. Called by FilesService outside any database transaction.
 */
export class S3FileStorage extends FileStorage {
  private readonly logger = new Logger(S3FileStorage.name);

  constructor(
    private readonly config: S3Config,
    private readonly context: RequestContext,
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

  async get(key: string): Promise<(StoredObject & { body: Buffer }) | null> {
    const res = await this.send('GET', key, EMPTY_SHA256);
    if (res.status === 404) {
      await res.arrayBuffer();
      return null;
    }
    await this.expectOk(res, 'GetObject', key);
    const body = Buffer.from(await res.arrayBuffer());
    const sha256 = sha256Hex(body);
    const stated = res.headers.get(SHA256_META);
    if (stated && stated !== sha256) {
      this.logger.error(`S3 object ${key}: its bytes do not match the SHA-256 stored with them`);
      throw new AppError(FileErrors.E5310, 'The stored file does not match its checksum.');
    }
    const contentType = res.headers.get('content-type') ?? 'application/octet-stream';
    return { key, contentType, size: body.length, sha256, body };
  }

  async delete(key: string): Promise<void> {
    const res = await this.send('DELETE', key, EMPTY_SHA256);
    if (res.status === 404) return void (await res.arrayBuffer());
    await this.expectOk(res, 'DeleteObject', key);
  }

  private async send(
    method: string,
    name: string,
    payloadSha256: string,
    body?: Buffer,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    const url = objectUrl(this.config, name);
    const signed = signV4(
      { method, url, headers, payloadSha256, region: this.config.region, service: 's3', now: this.now() },
      this.config,
    );
    delete signed.host; // fetch sets it from the URL
    try {
      return await fetch(url, {
        method,
        headers: signed,
        body: body ? new Uint8Array(body) : undefined,
        signal: AbortSignal.timeout(S3_TIMEOUT_MS),
      });
    } catch (err) {
      this.logger.warn({ err }, `S3 ${method} ${url.host}: no answer`);
      throw new AppError(FileErrors.E5310);
    }
  }

  private async expectOk(res: Response, operation: string, name: string): Promise<void> {
    if (res.ok) {
      if (res.bodyUsed === false && operation !== 'GetObject') await res.arrayBuffer();
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
