import { loadFileStorageConfig } from './file-storage.config.js';

const fail = (message: string) => new Error(message);
const S3 = {
  FILE_STORAGE: 's3',
  S3_BUCKET: 'wallet-files',
  S3_REGION: 'eu-central-1',
  S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
  S3_SECRET_ACCESS_KEY: 'secret',
};

describe('FILE_STORAGE and the S3_* settings', () => {
  it('defaults to the database; s3 defaults to AWS in its region with virtual-hosted addressing', () => {
    expect(loadFileStorageConfig({}, fail)).toEqual({ kind: 'database', partSize: 4 * 1024 * 1024 });
    expect(loadFileStorageConfig(S3, fail)).toEqual({
      kind: 's3',
      partSize: 8 * 1024 * 1024,
      s3: {
        endpoint: 'https://s3.eu-central-1.amazonaws.com',
        bucket: 'wallet-files',
        region: 'eu-central-1',
        accessKeyId: 'AKIAEXAMPLE',
        secretAccessKey: 'secret',
        forcePathStyle: false,
      },
    });
    expect(
      loadFileStorageConfig({ ...S3, S3_ENDPOINT: 'http://minio:9000/', S3_FORCE_PATH_STYLE: 'true' }, fail),
    ).toMatchObject({
      s3: { endpoint: 'http://minio:9000', forcePathStyle: true },
    });
  });

  it('refuses at boot what would fail later, naming the variable', () => {
    expect(() => loadFileStorageConfig({ FILE_STORAGE: 'disk' }, fail)).toThrow('FILE_STORAGE must be');
    expect(() => loadFileStorageConfig({ ...S3, S3_SECRET_ACCESS_KEY: '' }, fail)).toThrow('S3_SECRET_ACCESS_KEY');
    expect(() => loadFileStorageConfig({ ...S3, S3_BUCKET: 'Bad_Bucket' }, fail)).toThrow('S3_BUCKET');
    expect(() => loadFileStorageConfig({ ...S3, S3_ENDPOINT: 'ftp://x' }, fail)).toThrow('S3_ENDPOINT');
    expect(() => loadFileStorageConfig({ ...S3, S3_FORCE_PATH_STYLE: 'yes' }, fail)).toThrow('S3_FORCE_PATH_STYLE');
    expect(() => loadFileStorageConfig({ FILE_STORAGE_PART_SIZE: '1000' }, fail)).toThrow('FILE_STORAGE_PART_SIZE');
    expect(loadFileStorageConfig({ FILE_STORAGE_PART_SIZE: '65536' }, fail)).toEqual({
      kind: 'database',
      partSize: 65536,
    });
  });
});
