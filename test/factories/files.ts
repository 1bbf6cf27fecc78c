import { createHash } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { scopeOf, type Mode } from '../../src/common/context/principal.js';
import { RequestContext } from '../../src/common/context/request-context.js';
import { ApplicationsService } from '../../src/modules/applications/index.js';
import { FilesService, type FileResponse } from '../../src/modules/files/index.js';

/** The largest upload the service accepts (10 MB). */
export const MB10 = 10 * 1024 * 1024;
/** A PNG's signature and the start of its IHDR chunk: what the files API sniffs as image/png. */
export const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * `size` bytes starting with `head`, the rest pseudo-random (xorshift from `seed`), so a round trip
 * checks every byte.
 */
export function sized(head: Buffer, size: number, seed = 2463534242): Buffer {
  const out = Buffer.alloc(size);
  let x = seed;
  for (let i = 0; i < size; i += 1) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  head.copy(out);
  return out;
}

/** `bytes` as a producer writes them: in uneven chunks that do not line up with the storage's parts. */
export async function* inChunks(bytes: Buffer, chunk = 100_003): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += chunk) yield bytes.subarray(at, at + chunk);
}

/**
 * Stores `body` as the service stores a generated file (a report's CSV), streamed through
 * FileStorage.putStream, for `applicationId` in `mode`; answers the file object.
 */
export async function storeGenerated(
  app: INestApplication,
  applicationId: string,
  body: AsyncIterable<Buffer>,
  mode: Mode = 'test',
): Promise<FileResponse> {
  const application = (await app.get(ApplicationsService).byIds([applicationId])).get(applicationId)!;
  return app.get(RequestContext).runInMode(mode, () =>
    app.get(FilesService).storeGenerated(scopeOf(application, mode), {
      purpose: 'finance_report_run',
      filename: 'big.csv',
      type: 'csv',
      body,
    }),
  );
}
