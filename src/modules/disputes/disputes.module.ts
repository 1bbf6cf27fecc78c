import { Module, type OnModuleInit } from '@nestjs/common';
import { DatabaseModule } from '../../common/database/database.module.js';
import { ChargeHooks, CheckoutModule } from '../checkout/index.js';
import { ProviderAdaptersModule } from '../../providers/provider-adapters.js';
import { FilesModule } from '../files/index.js';
import { LedgerModule } from '../ledger/index.js';
import { DisputeRecords } from './dispute-records.js';
import { DisputeClosures } from './dispute-closures.service.js';
import { DisputeSubmissions } from './dispute-submissions.service.js';
import { DisputeJournals } from './dispute.journals.js';
import { DisputesController, DisputeTestHelpersController } from './disputes.controller.js';
import { DisputesRepository } from './disputes.repository.js';
import { DisputesService } from './disputes.service.js';
import { Dispute } from './entities/dispute.entity.js';
import { ProviderDisputesService } from './provider-disputes.service.js';

@Module({
  imports: [
    ...DatabaseModule.forModeEntities([Dispute]),
    LedgerModule,
    CheckoutModule,
    FilesModule,
    ProviderAdaptersModule,
  ],
  controllers: [DisputesController, DisputeTestHelpersController],
  providers: [
    DisputesRepository,
    DisputesService,
    DisputeJournals,
    DisputeRecords,
    DisputeSubmissions,
    DisputeClosures,
    ProviderDisputesService,
  ],
  exports: [DisputesService, ProviderDisputesService],
})
export class DisputesModule implements OnModuleInit {
  constructor(
    private readonly disputes: DisputesService,
    private readonly charges: ChargeHooks,
  ) {}

  /** The sandbox's disputing test card: the cardholder disputes the payment right after it succeeds. */
  onModuleInit(): void {
    this.charges.sandboxDispute.on(async ({ principal, chargeId }) => {
      // The dispute belongs to the paying request's principal.
      await this.disputes.openForTest(principal, { charge_id: chargeId, reason: 'fraudulent' });
    });
  }
}
