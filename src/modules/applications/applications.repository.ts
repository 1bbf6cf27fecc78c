import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type DataSource, type EntityManager } from 'typeorm';
import { Application } from './entities/application.entity.js';

@Injectable()
export class ApplicationsRepository {
  constructor(@InjectDataSource('platform') private readonly db: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  findBySlug(slug: string): Promise<Application | null> {
    return this.db.getRepository(Application).findOneBy({ slug });
  }

  findByIds(ids: string[]): Promise<Application[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.getRepository(Application).findBy({ id: In(ids) });
  }

  /**
   * The countries of application `id`, read through `manager` (a mode DataSource's transaction: the
   * platform schema is in the same database), so a caller inside its own transaction needs no second
   * connection (the embedded database serves one session at a time).
   */
  async countriesVia(manager: EntityManager, id: string): Promise<string[]> {
    const rows: Array<{ countries: string[] }> = await manager.query(
      'SELECT countries FROM platform.applications WHERE id = $1',
      [id],
    );
    return rows[0]?.countries ?? [];
  }

  /** The slug of application `id`, read through the caller's transaction (its connection, no second one). */
  async slugVia(manager: EntityManager, id: string): Promise<string | null> {
    const rows: Array<{ slug: string }> = await manager.query('SELECT slug FROM platform.applications WHERE id = $1', [
      id,
    ]);
    return rows[0]?.slug ?? null;
  }

  findById(id: string): Promise<Application | null> {
    return this.db.getRepository(Application).findOneBy({ id });
  }

  insertApplication(manager: EntityManager, application: Partial<Application>): Promise<Application> {
    return manager.getRepository(Application).save(manager.getRepository(Application).create(application));
  }
}
