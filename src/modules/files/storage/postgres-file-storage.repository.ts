import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AllConfig } from '../../../config/app.config.js';
import { ModeDb } from '../../../common/database/mode-db.js';
import { FileContent } from '../entities/file-content.entity.js';
import { FileStorage, inParts, type OpenedObject, type StoredObject } from './file-storage.js';

/**
 * The default FileStorage: bytes in the bound mode's `file_contents` table, no setup needed. An
 * upload is one row with its `body`; a streamed file is a row with a null `body` and its bytes in
 * ordered `file_content_parts` (FILE_STORAGE_PART_SIZE each), all written in one transaction, so
 * a file whose stream failed half-way leaves nothing behind and is never visible half-written.
 */
@Injectable()
export class PostgresFileStorage extends FileStorage {
  private readonly partSize: number;

  constructor(
    private readonly db: ModeDb,
    config: ConfigService<AllConfig, true>,
  ) {
    super();
    this.partSize = config.get('app.fileStorage', { infer: true }).partSize;
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

  async putStream(key: string, body: AsyncIterable<Buffer>, contentType: string): Promise<StoredObject> {
    const contents = this.db.table('file_contents');
    const parts = this.db.table('file_content_parts');
    return this.db.transaction(async (manager) => {
      // The row first (the parts reference it), its size and digest written once they are known.
      await manager.query(
        `INSERT INTO ${contents} (key, content_type, size, sha256, body) VALUES ($1, $2, 0, '', NULL)`,
        [key, contentType],
      );
      const hash = createHash('sha256');
      let size = 0;
      let number = 0;
      for await (const part of inParts(body, this.partSize)) {
        hash.update(part);
        size += part.length;
        number += 1;
        await manager.query(`INSERT INTO ${parts} (key, part_number, body) VALUES ($1, $2, $3)`, [key, number, part]);
      }
      const sha256 = hash.digest('hex');
      await manager.query(`UPDATE ${contents} SET size = $2, sha256 = $3 WHERE key = $1`, [key, size, sha256]);
      return { key, contentType, size, sha256 };
    });
  }

  async open(key: string): Promise<OpenedObject | null> {
    const contents = this.db.table('file_contents');
    const rows: Array<{ content_type: string; size: number; body: Buffer | null }> = await this.db.manager.query(
      `SELECT content_type, size, body FROM ${contents} WHERE key = $1`,
      [key],
    );
    if (rows.length === 0) return null;
    const [row] = rows;
    if (row.body !== null) return { contentType: row.content_type, size: row.size, body: Readable.from([row.body]) };
    // The stream is read after the request's handler returned (outside its context): the mode's
    // database and table are taken now.
    const source = this.db.dataSource;
    const parts = this.db.table('file_content_parts');
    async function* partByPart(): AsyncGenerator<Buffer> {
      for (let number = 1; ; number++) {
        const found: Array<{ body: Buffer }> = await source.query(
          `SELECT body FROM ${parts} WHERE key = $1 AND part_number = $2`,
          [key, number],
        );
        if (found.length === 0) return;
        yield found[0].body;
      }
    }
    return { contentType: row.content_type, size: row.size, body: Readable.from(partByPart(), { objectMode: false }) };
  }

  async delete(key: string): Promise<void> {
    await this.db.repository(FileContent).delete({ key });
  }
}
