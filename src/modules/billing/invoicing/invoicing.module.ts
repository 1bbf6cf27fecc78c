import { Module, type OnModuleInit } from '@nestjs/common';
import { DatabaseModule } from '../../../common/database/database.module.js';
import { ApplicationsModule } from '../../applications/index.js';
import { CheckoutModule } from '../../checkout/index.js';
import { MeterModule } from '../../meter/index.js';
import { CreditModule } from '../credit/credit.module.js';
import { SubscriptionHooks, SubscriptionsModule } from '../subscriptions/index.js';
import { BillingVerifyService } from './billing-verify.service.js';
import { InvoiceLine } from './entities/invoice-line.entity.js';
import { SubscriptionInvoice } from './entities/subscription-invoice.entity.js';
import { UpcomingNotice } from './entities/upcoming-notice.entity.js';
import { ImmediateInvoicesService } from './immediate-invoices.service.js';
import { InvoiceComposer } from './invoice-composer.js';
import { InvoiceFinalizationService } from './invoice-finalization.service.js';
import { InvoiceLinesService } from './invoice-lines.service.js';
import { InvoicingController } from './invoicing.controller.js';
import { InvoicingJob } from './invoicing.job.js';
import { InvoicingRepository } from './invoicing.repository.js';
import { MeteredLinesService } from './metered-lines.service.js';
import { PeriodCloseService } from './period-close.service.js';
import { UpcomingInvoicesService } from './upcoming-invoices.service.js';

/**
 * Billing part 2: periods closed into invoices with provable metered lines (docs/BILLING.md, "The
 * life of a period"). Listens to SubscriptionHooks.periodsRolled; finalizes through the invoice
 * resource's own service (checkout), which emits InvoiceHooks.finalized for collection.
 */
@Module({
  imports: [
    ...DatabaseModule.forModeEntities([InvoiceLine, SubscriptionInvoice, UpcomingNotice]),
    ApplicationsModule,
    CheckoutModule,
    CreditModule,
    MeterModule,
    SubscriptionsModule,
  ],
  controllers: [InvoicingController],
  providers: [
    InvoicingRepository,
    InvoiceComposer,
    MeteredLinesService,
    PeriodCloseService,
    InvoiceFinalizationService,
    ImmediateInvoicesService,
    UpcomingInvoicesService,
    InvoiceLinesService,
    BillingVerifyService,
    InvoicingJob,
  ],
  exports: [InvoicingJob, BillingVerifyService],
})
export class InvoicingModule implements OnModuleInit {
  constructor(
    private readonly hooks: SubscriptionHooks,
    private readonly close: PeriodCloseService,
    private readonly immediate: ImmediateInvoicesService,
  ) {}

  /**
   * Periods the subscriptions job rolled close into invoices, in the batch's transaction; a cancel
   * with `invoice_now` or an `always_invoice` update is invoiced in its own.
   */
  onModuleInit(): void {
    this.hooks.periodsRolled.on((event) => this.close.closeRolled(event));
    this.hooks.invoiceNow.on((event) => this.immediate.invoiceNow(event));
  }
}
