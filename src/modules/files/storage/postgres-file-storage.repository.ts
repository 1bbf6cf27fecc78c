import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ModeDb } from '../../../common/database/mode-db.js';
import { FileContent } from '../entities/file-content.entity.js';
import { FileStorage, type StoredObject } from './file-storage.js';

/** The default FileStorage: bytes in the bound mode's `file_contents` table, no setup needed. */
@Injectable()
export class PostgresFileStorage extends FileStorage {
  constructor(private readonly db: ModeDb) {
    super();
  }

  async put(key: string, body: Buffer, contentType: string): Promise<StoredObject> {
    const stored = {
      key,
      content_type: contentType,
      size: body.length,
      sha256: createHash('sha256').update(body).digest('hex'),
    };
    await this.db.repository(FileContent).insert({ ...stored, body });
    return { key, contentType, size: stored.size, sha256: stored.sha256 };
  }

  async get(key: string): Promise<(StoredObject & { body: Buffer }) | null> {
    const row = await this.db.repository(FileContent).findOneBy({ key });
    if (!row) return null;
    return { key, contentType: row.content_type, size: row.size, sha256: row.sha256, body: row.body };
  }

  async delete(key: string): Promise<void> {
    await this.db.repository(FileContent).delete({ key });
  }
}
