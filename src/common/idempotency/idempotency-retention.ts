import { Injectable, type OnModuleInit } from '@nestjs/common';
import { PartitionMaintenanceJob } from '../database/partitions/partition-maintenance.job.js';
import { IDEMPOTENCY_KEYS } from '../database/partitions/partitioned-tables.js';
import { IdempotencyRepository } from './idempotency.repository.js';

/**
 * Idempotency key retention (docs/IDEMPOTENCY.md "Retention"): the partition maintenance job drops
 * whole days of `platform.idempotency_keys` IDEMPOTENCY_KEY_RETENTION_DAYS after they ended, each
 * behind the hook registered here, which keeps a day while a lease in it is live and carries forward
 * the keys in it that can still answer.
 */
@Injectable()
export class IdempotencyRetention implements OnModuleInit {
  constructor(
    private readonly keys: IdempotencyRepository,
    private readonly partitions: PartitionMaintenanceJob,
  ) {}

  onModuleInit(): void {
    this.partitions.useBeforeDrop(IDEMPOTENCY_KEYS, (now) =>
      Promise.resolve((tx, day) => this.keys.carryForward(tx, day, now)),
    );
  }
}
