import { Global, Module } from '@nestjs/common';
import { AuditRecorder } from '../../common/audit/audit-recorder.js';
import { DatabaseModule } from '../../common/database/database.module.js';
import { PartitionsModule } from '../../common/database/partitions/partitions.module.js';
import { LedgerModule } from '../ledger/index.js';
import { AuditChainKeeper } from './audit-chain-keeper.js';
import { AuditOnCommit } from './audit-on-commit.js';
import { AuditController } from './audit.controller.js';
import { AuditBurstJob, AuditRetention } from './audit.jobs.js';
import { AuditReader } from './audit-reader.service.js';
import { AuditRepository } from './audit.repository.js';
import { AuditService } from './audit.service.js';
import { AuthFailureBursts } from './auth-failure-bursts.js';
import { AuditEvent } from './entities/audit-event.entity.js';

/**
 * The audit log (docs/AUDIT.md). Global: every module (and the kernel's auth guard) audits through
 * the kernel's `AuditRecorder` port, which AuditService implements.
 */
@Global()
@Module({
  imports: [DatabaseModule.forPlatformEntities([AuditEvent]), LedgerModule, PartitionsModule],
  controllers: [AuditController],
  providers: [
    AuditRepository,
    AuditService,
    AuditReader,
    { provide: AuditRecorder, useExisting: AuditService },
    AuthFailureBursts,
    AuditOnCommit,
    AuditChainKeeper,
    AuditBurstJob,
    AuditRetention,
  ],
  exports: [AuditRecorder, AuditService, AuditChainKeeper, AuditBurstJob, AuditRetention],
})
export class AuditModule {}
