import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { OneTimeSession } from './entities/one-time-session.entity.js';

@Injectable()
export class SessionsRepository {
  constructor(@InjectDataSource('platform') private readonly db: DataSource) {}

  async insert(session: OneTimeSession): Promise<void> {
    await this.db.getRepository(OneTimeSession).insert(session);
  }

  findByHash(tokenHash: Buffer): Promise<OneTimeSession | null> {
    return this.db.getRepository(OneTimeSession).findOneBy({ token_hash: tokenHash });
  }

  /** Marks the session completed once; false when it was unknown or already completed. */
  async complete(id: string, at: Date, applicationId?: string): Promise<boolean> {
    const qb = this.db
      .createQueryBuilder()
      .update(OneTimeSession)
      .set({ completed_at: at })
      .where('id = :id AND completed_at IS NULL', { id });
    if (applicationId) qb.andWhere('application_id = :applicationId', { applicationId });
    const result = await qb.execute();
    return (result.affected ?? 0) > 0;
  }
}
