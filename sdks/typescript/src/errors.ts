/** The service's error object (docs/API.md "Errors"), as every non-2xx answer carries it. */
export interface WalletErrorObject {
  code: string;
  message: string;
  param?: string;
  doc_url?: string;
  request_id?: string;
  [key: string]: unknown;
}

/** A non-2xx answer (after retries), or a network failure (status 0, code `network_error`). */
export class WalletError extends Error {
  readonly status: number;
  readonly code: string;
  readonly param: string | undefined;
  readonly doc_url: string | undefined;
  readonly request_id: string | undefined;
  /** The error object exactly as the service sent it. */
  readonly error: WalletErrorObject;

  constructor(status: number, error: WalletErrorObject, options?: { cause?: unknown }) {
    super(`${status} ${error.code}: ${error.message}`, options);
    this.name = 'WalletError';
    this.status = status;
    this.code = error.code;
    this.param = error.param;
    this.doc_url = error.doc_url;
    this.request_id = error.request_id;
    this.error = error;
  }
}

/** The error object of an answer's body, or one made from the status when the body is not one. */
export function errorObjectOf(status: number, body: unknown, requestId: string | null): WalletErrorObject {
  if (body && typeof body === 'object' && typeof (body as WalletErrorObject).code === 'string') {
    return body as WalletErrorObject;
  }
  return {
    code: `http_${status}`,
    message: typeof body === 'string' && body ? body.slice(0, 200) : `HTTP ${status}`,
    ...(requestId ? { request_id: requestId } : {}),
  };
}
