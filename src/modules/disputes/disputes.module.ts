import { Module } from '@nestjs/common';
import { DatabaseModule } from '../../common/database/database.module.js';
import { LedgerModule } from '../ledger/index.js';
import { DisputesController, DisputeTestHelpersController } from './disputes.controller.js';
import { DisputesRepository } from './disputes.repository.js';
import { DisputesService } from './disputes.service.js';
import { Dispute } from './entities/dispute.entity.js';

@Module({
  imports: [...DatabaseModule.forModeEntities([Dispute]), LedgerModule],
  controllers: [DisputesController, DisputeTestHelpersController],
  providers: [DisputesRepository, DisputesService],
  exports: [DisputesService],
})
export class DisputesModule {}
