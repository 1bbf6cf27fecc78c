import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Errors } from '../errors/error-catalog.js';
import { errorDocUrl } from '../errors/error-docs.js';
import { newId } from '../ids.js';

/**
 * Requests Node's HTTP parser refuses before any middleware runs still get the error object:
 * headers or a URL over the server's limit (16 KB by default) are 431 E2008, anything else it
 * cannot parse is 400 E2000. Node answers these itself with an empty body otherwise.
 */
export function answerClientErrors(server: Server, publicUrl: string): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || (err.code === 'ECONNRESET' && socket.destroyed)) {
      socket.destroy();
      return;
    }
    const definition = err.code === 'HPE_HEADER_OVERFLOW' ? Errors.E2008 : Errors.E2000;
    const requestId = `req_${newId().replace(/-/g, '')}`;
    const body = JSON.stringify({
      object: 'error',
      code: definition.code,
      key: definition.key,
      i18n_key: definition.i18n_key,
      message: definition.code === 'E2008' ? definition.message : 'The request could not be parsed as HTTP.',
      doc_url: errorDocUrl(publicUrl, definition.code),
      request_id: requestId,
    });
    const reason = definition.code === 'E2008' ? 'Request Header Fields Too Large' : 'Bad Request';
    socket.end(
      `HTTP/1.1 ${definition.http_status} ${reason}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
