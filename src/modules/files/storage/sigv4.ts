import { createHash, createHmac } from 'node:crypto';

/** SHA-256 of an empty body, the `x-amz-content-sha256` of a GET, HEAD or DELETE. */
export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

export interface SigningCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface RequestToSign {
  method: string;
  url: URL;
  /** Headers to send and sign (besides `host`, `x-amz-date` and `x-amz-content-sha256`, which are added). */
  headers: Record<string, string>;
  /** Hex SHA-256 of the body: the payload is signed, not `UNSIGNED-PAYLOAD`. */
  payloadSha256: string;
  region: string;
  service: string;
  now: Date;
}

export const sha256Hex = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string): Buffer => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding as SigV4 wants it: everything but A-Z a-z 0-9 - . _ ~ is %XX (upper case). */
export function uriEncode(value: string, keepSlash: boolean): string {
  return Array.from(Buffer.from(value, 'utf8'))
    .map((byte) => {
      const char = String.fromCharCode(byte);
      if (/[A-Za-z0-9\-._~]/.test(char) || (keepSlash && char === '/')) return char;
      return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

/**
 * AWS Signature Version 4 in the Authorization header (the S3 API reference, "Authenticating
 * Requests: Using the Authorization Header"): the canonical request (method, URI, sorted query,
 * sorted lower-case headers, signed header list, payload hash), the string to sign over its hash
 * and the credential scope `<date>/<region>/<service>/aws4_request`, signed with the key derived
 * from the secret by HMAC-SHA256 over date, region, service and `aws4_request`. S3 paths are
 * encoded once (not twice as for other services). Answers every header to send.
 */
export function signV4(request: RequestToSign, credentials: SigningCredentials): Record<string, string> {
  const amzDate = request.now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const date = amzDate.slice(0, 8);
  const headers: Record<string, string> = {
    ...Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v.trim()])),
    host: request.url.host,
    'x-amz-date': amzDate,
    'x-amz-content-sha256': request.payloadSha256,
  };
  const names = Object.keys(headers).sort();
  const signedHeaders = names.join(';');
  const query = [...request.url.searchParams.entries()]
    .map(([k, v]) => [uriEncode(k, false), uriEncode(v, false)])
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalRequest = [
    request.method,
    uriEncode(decodeURIComponent(request.url.pathname), true),
    query,
    names.map((name) => `${name}:${headers[name].replace(/\s+/g, ' ')}\n`).join(''),
    signedHeaders,
    request.payloadSha256,
  ].join('\n');
  const scope = `${date}/${request.region}/${request.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const key = [date, request.region, request.service, 'aws4_request'].reduce<Buffer | string>(
    (k, part) => hmac(k, part),
    `AWS4${credentials.secretAccessKey}`,
  );
  const signature = createHmac('sha256', key).update(stringToSign).digest('hex');
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope},SignedHeaders=${signedHeaders},Signature=${signature}`,
  };
}
