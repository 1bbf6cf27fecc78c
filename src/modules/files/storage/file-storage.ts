import type { Readable } from 'node:stream';

/** One stored object, as an S3-compatible store describes it too. */
export interface StoredObject {
  key: string;
  contentType: string;
  size: number;
  /** Hex SHA-256 of the bytes (S3's x-amz-checksum-sha256 carries the same digest, base64). */
  sha256: string;
}

/** A stored object opened for reading: its bytes come as a stream, part after part. */
export interface OpenedObject {
  contentType: string;
  size: number;
  body: Readable;
}

/**
 * Where file bytes live. The PostgreSQL adapter (the default) keeps them in the bound mode's
 * `file_contents` (and `file_content_parts` for streamed files); an S3 adapter fits the same shape
 * (key, content type, size, sha256). Keys are chosen by the caller and carry the application id;
 * callers read a key only after finding the file's row for their own application.
 *
 * `put` stores bytes already in memory (an upload, at most 10 MB); `putStream` stores bytes as they
 * are produced (a report's CSV), holding at most one part in memory, and the object exists only
 * once the whole stream was stored (nothing half-written is ever visible). `open` reads the bytes
 * back part by part; its stream must be consumed or destroyed.
 */
export abstract class FileStorage {
  abstract put(key: string, body: Buffer, contentType: string): Promise<StoredObject>;
  abstract putStream(key: string, body: AsyncIterable<Buffer>, contentType: string): Promise<StoredObject>;
  abstract open(key: string): Promise<OpenedObject | null>;
  abstract delete(key: string): Promise<void>;
}

/**
 * The chunks of `source` regrouped into parts of exactly `partSize` bytes (the last one shorter,
 * never empty), so a store gets parts of the size it wants whatever size the producer writes.
 * Each chunk is copied into the part at once (the producer's small chunks die young instead of
 * being promoted to V8's old generation while a part fills), and the part's memory is reused: a
 * part is valid only until the next one is asked for (copy it to keep it).
 */
export async function* inParts(source: AsyncIterable<Buffer>, partSize: number): AsyncGenerator<Buffer> {
  const part = Buffer.allocUnsafeSlow(partSize);
  let length = 0;
  for await (const chunk of source) {
    let at = 0;
    while (at < chunk.length) {
      const copied = chunk.copy(part, length, at, Math.min(chunk.length, at + partSize - length));
      length += copied;
      at += copied;
      if (length === partSize) {
        yield part;
        length = 0;
      }
    }
  }
  if (length > 0) yield part.subarray(0, length);
}
