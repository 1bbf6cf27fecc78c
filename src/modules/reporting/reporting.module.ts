import { Module } from '@nestjs/common';
import { DatabaseModule } from '../../common/database/database.module.js';
import { ApplicationsModule } from '../applications/index.js';
import { FilesModule } from '../files/index.js';
import { LedgerModule } from '../ledger/index.js';
import { MeterModule } from '../meter/index.js';
import { ReportRun } from './entities/report-run.entity.js';
import { ReportRunsController } from './report-runs.controller.js';
import { ReportRunsJob } from './report-runs.job.js';
import { ReportRunsRepository } from './report-runs.repository.js';
import { ReportRunsService } from './report-runs.service.js';

@Module({
  imports: [...DatabaseModule.forModeEntities([ReportRun]), LedgerModule, MeterModule, FilesModule, ApplicationsModule],
  controllers: [ReportRunsController],
  providers: [ReportRunsRepository, ReportRunsService, ReportRunsJob],
  exports: [ReportRunsService, ReportRunsJob],
})
export class ReportingModule {}
