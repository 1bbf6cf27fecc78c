import { Module } from '@nestjs/common';
import { DatabaseModule } from '../../common/database/database.module.js';
import { ProviderAdaptersModule } from '../../providers/provider-adapters.js';
import { ApplicationsModule } from '../applications/index.js';
import { ReconciliationItem } from './entities/reconciliation-item.entity.js';
import { ReconciliationRun } from './entities/reconciliation-run.entity.js';
import { ReconciliationRunsController } from './reconciliation-runs.controller.js';
import { ReconciliationRunsJob } from './reconciliation-runs.job.js';
import { ReconciliationRunsRepository } from './reconciliation-runs.repository.js';
import { ReconciliationRunsService } from './reconciliation-runs.service.js';
import { ReconciliationMetrics } from './reconciliation.metrics.js';
import { SettlementSources } from './settlement-sources.js';

@Module({
  imports: [
    ...DatabaseModule.forModeEntities([ReconciliationRun, ReconciliationItem]),
    ProviderAdaptersModule,
    ApplicationsModule,
  ],
  controllers: [ReconciliationRunsController],
  providers: [
    ReconciliationRunsRepository,
    ReconciliationRunsService,
    ReconciliationRunsJob,
    ReconciliationMetrics,
    SettlementSources,
  ],
  exports: [ReconciliationRunsService, ReconciliationRunsJob],
})
export class ReconciliationModule {}
