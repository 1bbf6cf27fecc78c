import { objectUrl } from './s3-file-storage.js';
import { EMPTY_SHA256, signV4, uriEncode } from './sigv4.js';

describe('signV4 (AWS Signature Version 4, Authorization header)', () => {
  it('signs the S3 API reference example GET Object (examplebucket/test.txt, Range bytes=0-9) to its published signature', () => {
    const headers = signV4(
      {
        method: 'GET',
        url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
        headers: { Range: 'bytes=0-9' },
        payloadSha256: EMPTY_SHA256,
        region: 'us-east-1',
        service: 's3',
        now: new Date('2013-05-24T00:00:00Z'),
      },
      { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
    );
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
    expect(headers['x-amz-date']).toBe('20130524T000000Z');
  });

  it('encodes a key once, keeping slashes, as S3 wants', () => {
    expect(uriEncode('a b/c+d~é', true)).toBe('a%20b/c%2Bd~%C3%A9');
    expect(uriEncode('a/b', false)).toBe('a%2Fb');
  });
});

describe('objectUrl', () => {
  it('names an object path-style (MinIO) or virtual-hosted (AWS, R2)', () => {
    const config = { endpoint: 'http://minio:9000', bucket: 'wallet-files', forcePathStyle: true };
    expect(objectUrl(config, 'wallet_live/app/f 1').href).toBe('http://minio:9000/wallet-files/wallet_live/app/f%201');
    expect(
      objectUrl({ ...config, endpoint: 'https://s3.eu-central-1.amazonaws.com', forcePathStyle: false }, 'k').href,
    ).toBe('https://wallet-files.s3.eu-central-1.amazonaws.com/k');
  });
});
