import { Module } from '@nestjs/common';
import { DatabaseModule } from '../../common/database/database.module.js';
import { AccountsModule } from '../accounts/index.js';
import { CustomersModule } from '../customers/index.js';
import { LedgerModule } from '../ledger/index.js';
import { ChargeHooks } from './charge-hooks.js';
import { ChargesRepository } from './charges.repository.js';
import { ChargesService } from './charges.service.js';
import { CheckoutExpiryService } from './checkout-expiry.service.js';
import { CheckoutsService } from './checkouts.service.js';
import {
  ChargesController,
  CheckoutsController,
  CollectionTestHelpersController,
  InvoicesController,
  PaymentIntentsController,
  PaymentLinksController,
} from './checkout.controller.js';
import { CollectionRepository } from './checkout.repository.js';
import { Charge } from './entities/charge.entity.js';
import { Checkout } from './entities/checkout.entity.js';
import { PaymentMethod } from './entities/payment-method.entity.js';
import { Invoice } from './entities/invoice.entity.js';
import { PaymentIntent } from './entities/payment-intent.entity.js';
import { PaymentLink } from './entities/payment-link.entity.js';
import { HostedPagesController } from './hosted/hosted-pages.controller.js';
import { HostedUrls } from './hosted-urls.js';
import { InvoicesService } from './invoices.service.js';
import { PaymentIntentsService } from './payment-intents.service.js';
import { PaymentLinksService } from './payment-links.service.js';
import { PaymentsService } from './payments.service.js';
import { CollectionProviders } from './providers/collection-providers.js';
import { SandboxCollectionProvider } from './providers/sandbox-collection.provider.js';
import { SettlementService } from './settlement.service.js';
import { TargetsService } from './targets.service.js';
import { CollectionTestHelpersService } from './test-helpers.service.js';

@Module({
  imports: [
    ...DatabaseModule.forModeEntities([PaymentIntent, Invoice, Checkout, PaymentLink, Charge, PaymentMethod]),
    LedgerModule,
    CustomersModule,
    AccountsModule,
  ],
  controllers: [
    PaymentIntentsController,
    InvoicesController,
    CheckoutsController,
    ChargesController,
    PaymentLinksController,
    CollectionTestHelpersController,
    HostedPagesController,
  ],
  providers: [
    CollectionRepository,
    TargetsService,
    PaymentIntentsService,
    InvoicesService,
    CheckoutsService,
    CheckoutExpiryService,
    PaymentsService,
    ChargesRepository,
    ChargesService,
    ChargeHooks,
    PaymentLinksService,
    SettlementService,
    CollectionTestHelpersService,
    CollectionProviders,
    SandboxCollectionProvider,
    HostedUrls,
  ],
  exports: [
    PaymentIntentsService,
    InvoicesService,
    CheckoutsService,
    ChargesService,
    ChargeHooks,
    SandboxCollectionProvider,
  ],
})
export class CheckoutModule {}
