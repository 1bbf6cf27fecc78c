/** One stored object, as an S3-compatible store describes it too. */
export interface StoredObject {
  key: string;
  contentType: string;
  size: number;
  /** Hex SHA-256 of the bytes (S3's x-amz-checksum-sha256 carries the same digest, base64). */
  sha256: string;
}

/**
 * Where file bytes live. The PostgreSQL adapter (the default) keeps them in the bound mode's
 * `file_contents`; an S3 adapter fits the same shape (key, content type, size, sha256). Keys are
 * chosen by the caller and carry the application id; callers read a key only after finding the
 * file's row for their own application.
 */
export abstract class FileStorage {
  abstract put(key: string, body: Buffer, contentType: string): Promise<StoredObject>;
  abstract get(key: string): Promise<(StoredObject & { body: Buffer }) | null>;
  abstract delete(key: string): Promise<void>;
}
