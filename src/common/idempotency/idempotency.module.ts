import { Global, Module } from '@nestjs/common';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IdempotencyScope } from './idempotency-scope.js';

/** The keys' store and, for services that resume interrupted work, the request's IdempotencyScope. */
@Global()
@Module({
  providers: [IdempotencyRepository, IdempotencyScope],
  exports: [IdempotencyRepository, IdempotencyScope],
})
export class IdempotencyModule {}
