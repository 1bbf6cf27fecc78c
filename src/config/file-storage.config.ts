/** Where uploaded files' bytes live (FILE_STORAGE): the bound mode's PostgreSQL, or an S3-compatible bucket. */
export type FileStorageConfig = ({ kind: 'database' } | { kind: 's3'; s3: S3Config }) & {
  /**
   * FILE_STORAGE_PART_SIZE: the bytes of one part of a streamed file (a report's CSV): a row of
   * `file_content_parts` (default 4 MiB) or an S3 multipart upload part (default 8 MiB; S3 refuses
   * parts under 5 MiB but the last). At most one part is held in memory while a file is stored.
   */
  partSize: number;
};

const MiB = 1024 * 1024;

/** An S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, …), signed with Signature Version 4. */
export interface S3Config {
  /** Base URL of the S3 API, e.g. `https://s3.eu-central-1.amazonaws.com` or `http://minio:9000`. */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `https://endpoint/bucket/key` (MinIO, most self-hosted stores) instead of `https://bucket.endpoint/key`. */
  forcePathStyle: boolean;
}

type Env = Record<string, string | undefined>;

/** FILE_STORAGE and, for `s3`, the S3_* settings; `fail` makes the boot error naming the variable. */
export function loadFileStorageConfig(env: Env, fail: (message: string) => Error): FileStorageConfig {
  const kind = env.FILE_STORAGE || 'database';
  const partSize = Number(env.FILE_STORAGE_PART_SIZE?.trim() || (kind === 's3' ? 8 * MiB : 4 * MiB));
  if (!Number.isInteger(partSize) || partSize < 1024 || partSize > 256 * MiB) {
    throw fail(
      `FILE_STORAGE_PART_SIZE must be a whole number of bytes from 1024 to 268435456, got "${env.FILE_STORAGE_PART_SIZE}"`,
    );
  }
  if (kind === 'database') return { kind, partSize };
  if (kind !== 's3') throw fail(`FILE_STORAGE must be "database" or "s3", got "${kind}"`);
  const required = (name: string): string => {
    const value = env[name]?.trim();
    if (!value) throw fail(`FILE_STORAGE=s3 needs ${name}`);
    return value;
  };
  const rawEndpoint = env.S3_ENDPOINT?.trim() || `https://s3.${required('S3_REGION')}.amazonaws.com`;
  let endpoint: URL;
  try {
    endpoint = new URL(rawEndpoint);
  } catch {
    throw fail(`S3_ENDPOINT must be an http(s) URL, got "${rawEndpoint}"`);
  }
  if (!['http:', 'https:'].includes(endpoint.protocol) || endpoint.search || endpoint.username) {
    throw fail(`S3_ENDPOINT must be an http(s) URL without credentials or query, got "${rawEndpoint}"`);
  }
  const bucket = required('S3_BUCKET');
  // S3's bucket naming rules (3-63 lower-case letters, digits, dots and hyphens).
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw fail(`S3_BUCKET must be a valid bucket name (3-63 of a-z 0-9 . -), got "${bucket}"`);
  }
  const pathStyle = env.S3_FORCE_PATH_STYLE?.trim() || 'false';
  if (pathStyle !== 'true' && pathStyle !== 'false') {
    throw fail(`S3_FORCE_PATH_STYLE must be true or false, got "${pathStyle}"`);
  }
  return {
    kind,
    partSize,
    s3: {
      endpoint: endpoint.toString().replace(/\/+$/, ''),
      bucket,
      region: env.S3_REGION?.trim() || 'us-east-1',
      accessKeyId: required('S3_ACCESS_KEY_ID'),
      secretAccessKey: required('S3_SECRET_ACCESS_KEY'),
      forcePathStyle: pathStyle === 'true',
    },
  };
}
