import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

/** The readiness probe's one question to the database. */
@Injectable()
export class HealthRepository {
  constructor(@InjectDataSource('platform') private readonly db: DataSource) {}

  async ping(): Promise<void> {
    await this.db.query('SELECT 1');
  }
}
