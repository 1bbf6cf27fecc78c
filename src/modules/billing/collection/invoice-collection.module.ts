import { Module, type OnModuleInit } from '@nestjs/common';
import { ApplicationsModule } from '../../applications/index.js';
import { CheckoutModule, InvoiceHooks } from '../../checkout/index.js';
import { CustomersModule } from '../../customers/index.js';
import { SubscriptionHooks, SubscriptionsModule, TestClocksModule } from '../subscriptions/index.js';
import { InvoiceCollectionJob } from './invoice-collection.job.js';
import { InvoiceCollectionService } from './invoice-collection.service.js';

/**
 * Collection and dunning of subscription invoices (docs/BILLING.md, "Collection and retries"). It
 * sits above checkout (invoices, off-session charges) and subscriptions, which both know nothing of
 * it: it listens to their hooks.
 */
@Module({
  imports: [CheckoutModule, SubscriptionsModule, TestClocksModule, CustomersModule, ApplicationsModule],
  providers: [InvoiceCollectionService, InvoiceCollectionJob],
  exports: [InvoiceCollectionJob],
})
export class InvoiceCollectionModule implements OnModuleInit {
  constructor(
    private readonly invoiceHooks: InvoiceHooks,
    private readonly subscriptionHooks: SubscriptionHooks,
    private readonly collection: InvoiceCollectionService,
  ) {}

  onModuleInit(): void {
    this.invoiceHooks.finalized.on((event) => this.collection.finalized(event));
    this.invoiceHooks.paid.on((event) => this.collection.paid(event));
    this.subscriptionHooks.created.on((event) => this.collection.firstInvoice(event));
  }
}
