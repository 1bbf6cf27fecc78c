/**
 * Where an error code is documented: the public page `GET /errors/{code}` of this service, under
 * `PUBLIC_URL` (the base of every link the service hands out). Every error object carries it as
 * `doc_url`, Stripe style; the page answers the code's catalog entry without any credential.
 */
export const ERROR_DOCS_PATH = 'errors';

export function errorDocUrl(publicUrl: string, code: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/${ERROR_DOCS_PATH}/${code}`;
}
