import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { ModeDb } from '../../common/database/mode-db.js';
import { isUuid } from '../../common/ids.js';
import { FileRecord } from './entities/file.entity.js';

/** Every read is scoped to the application; the mode is the request's (ModeDb). */
@Injectable()
export class FilesRepository {
  constructor(private readonly db: ModeDb) {}

  async insert(file: Partial<FileRecord>, manager?: EntityManager): Promise<FileRecord> {
    const repo = this.db.repository(FileRecord, manager);
    return repo.save(repo.create(file));
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  findById(applicationId: string, id: string): Promise<FileRecord | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(FileRecord).findOneBy({ application_id: applicationId, id });
  }

  query(applicationId: string): SelectQueryBuilder<FileRecord> {
    return this.db
      .repository(FileRecord)
      .createQueryBuilder('f')
      .where('f.application_id = :applicationId', { applicationId });
  }
}
