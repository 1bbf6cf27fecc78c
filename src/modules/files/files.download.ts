import { StreamableFile } from '@nestjs/common';
import type { FileContents } from './files.service.js';

/** A download of the bytes: always an attachment, the name kept in RFC 6266's `filename*`. */
export function toDownload(contents: FileContents): StreamableFile {
  const ascii = contents.filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(contents.filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return new StreamableFile(contents.body, {
    type: contents.contentType,
    length: contents.body.length,
    disposition: `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`,
  });
}
