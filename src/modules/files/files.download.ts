import { StreamableFile } from '@nestjs/common';
import type { FileContents } from './files.service.js';

/** A download of the bytes: always an attachment, the name kept in RFC 6266's `filename*`. */
export function toDownload(contents: FileContents): StreamableFile {
  const ascii = contents.filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(contents.filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  const options = {
    type: contents.contentType,
    length: contents.size,
    disposition: `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`,
  };
  // A stream that fails half-way (its bytes do not match their SHA-256) breaks the connection off.
  return Buffer.isBuffer(contents.body)
    ? new StreamableFile(contents.body, options)
    : new StreamableFile(contents.body, options);
}
