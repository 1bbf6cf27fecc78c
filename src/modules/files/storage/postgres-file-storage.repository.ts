import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { AllConfig } from '../../../config/app.config.js';
import { DatabaseEndpoint } from '../../../common/database/database-endpoint.js';
import { ModeDb } from '../../../common/database/mode-db.js';
import { FileContent } from '../entities/file-content.entity.js';
import { FileStorage, inParts, type OpenedObject, type StoredObject } from './file-storage.js';

/**
 * The default FileStorage: bytes in the bound mode's `file_contents` table, no setup needed. An
 * upload is one row with its `body`; a streamed file is a row with a null `body` and its bytes in
 * ordered `file_content_parts` (FILE_STORAGE_PART_SIZE each), all written in one transaction, so
 * a file whose stream failed half-way leaves nothing behind and is never visible half-written.
 *
 * The embedded database (PGlite) is one session that serves one transaction at a time, and a
 * stream is usually produced from another transaction (a report's cursor): there the parts are
 * gathered in memory and written once the stream has ended (memory is bounded on PostgreSQL only).
 */
@Injectable()
export class PostgresFileStorage extends FileStorage implements OnModuleInit {
  private readonly partSize: number;
  private oneSession = false;

  constructor(
    private readonly db: ModeDb,
    config: ConfigService<AllConfig, true>,
    private readonly endpoint: DatabaseEndpoint,
    @InjectDataSource('wallet_test') private readonly anySource: DataSource,
  ) {
    super();
    this.partSize = config.get('app.fileStorage', { infer: true }).partSize;
  }

  /** Asked at boot, while no transaction holds the embedded server (a test run shares one through its URL). */
  async onModuleInit(): Promise<void> {
    if (this.endpoint.isEmbedded) this.oneSession = true;
    else {
      const [{ v }]: Array<{ v: string }> = await this.anySource.query('SELECT version() AS v');
      this.oneSession = v.includes('PGlite');
    }
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
    let source: AsyncIterable<Buffer> = inParts(body, this.partSize);
    if (this.oneSession) {
      const gathered: Buffer[] = [];
      for await (const part of source) gathered.push(Buffer.from(part));
      source = toAsync(gathered);
    }
    return this.db.transaction(async (manager) => {
      // The row first (the parts reference it), its size and digest written once they are known.
      await manager.query(
        `INSERT INTO ${contents} (key, content_type, size, sha256, body) VALUES ($1, $2, 0, '', NULL)`,
        [key, contentType],
      );
      const hash = createHash('sha256');
      let size = 0;
      let number = 0;
      for await (const part of source) {
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

async function* toAsync<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}
