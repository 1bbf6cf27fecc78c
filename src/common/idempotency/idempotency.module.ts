import { Global, Module } from '@nestjs/common';
import { PartitionsModule } from '../database/partitions/partitions.module.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IdempotencyRetention } from './idempotency-retention.js';
import { IdempotencyScope } from './idempotency-scope.js';

/** The keys' store, their retention hook and, for services that resume interrupted work, the request's IdempotencyScope. */
@Global()
@Module({
  imports: [PartitionsModule],
  providers: [IdempotencyRepository, IdempotencyScope, IdempotencyRetention],
  exports: [IdempotencyRepository, IdempotencyScope],
})
export class IdempotencyModule {}
