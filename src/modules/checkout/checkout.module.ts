import { Module } from '@nestjs/common';
import { ProviderAdaptersModule } from '../../providers/provider-adapters.js';
import { DatabaseModule } from '../../common/database/database.module.js';
import { AccountsModule } from '../accounts/index.js';
import { CustomersModule } from '../customers/index.js';
import { LedgerModule } from '../ledger/index.js';
import { ChargeHooks } from './payments/charge-hooks.js';
import { ChargeOutcomesService } from './payments/charge-outcomes.service.js';
import { ChargesRepository } from './payments/charges.repository.js';
import { ChargesService } from './payments/charges.service.js';
import { CheckoutExpiryService } from './checkouts/checkout-expiry.service.js';
import { CheckoutsService } from './checkouts/checkouts.service.js';
import { ChargesController } from './payments/charges.controller.js';
import { CheckoutsController } from './checkouts/checkouts.controller.js';
import { CollectionTestHelpersController } from './payments/test-helpers.controller.js';
import { InvoicesController } from './targets/invoices.controller.js';
import { PaymentIntentsController } from './targets/payment-intents.controller.js';
import { PaymentLinksController } from './checkouts/payment-links.controller.js';
import { CollectionRepository } from './checkout.repository.js';
import { Charge } from './entities/charge.entity.js';
import { Checkout } from './entities/checkout.entity.js';
import { PaymentMethod } from './entities/payment-method.entity.js';
import { CardToken } from './entities/card-token.entity.js';
import { CardTokensService } from './payments/card-tokens.service.js';
import { VaultController } from './payments/vault.controller.js';
import { Invoice } from './entities/invoice.entity.js';
import { PaymentIntent } from './entities/payment-intent.entity.js';
import { PaymentLink } from './entities/payment-link.entity.js';
import { CheckoutPageRenderer } from './checkouts/hosted/checkout-page.renderer.js';
import { HostedPagesController } from './checkouts/hosted/hosted-pages.controller.js';
import { ProviderReturnsController } from './checkouts/hosted/provider-returns.controller.js';
import { HostedUrls } from './checkouts/hosted-urls.js';
import { InvoicesService } from './targets/invoices.service.js';
import { PaymentIntentsService } from './targets/payment-intents.service.js';
import { PaymentLinksService } from './checkouts/payment-links.service.js';
import { PaymentsService } from './payments/payments.service.js';
import { CollectionProviders } from './payments/providers/collection-providers.js';
import { SandboxCollectionProvider } from './payments/providers/sandbox-collection.provider.js';
import { SettlementService } from './payments/settlement.service.js';
import { TargetsService } from './targets/targets.service.js';
import { CollectionTestHelpersService } from './payments/test-helpers.service.js';

@Module({
  imports: [
    ...DatabaseModule.forModeEntities([
      PaymentIntent,
      Invoice,
      Checkout,
      PaymentLink,
      Charge,
      PaymentMethod,
      CardToken,
    ]),
    LedgerModule,
    CustomersModule,
    AccountsModule,
    ProviderAdaptersModule,
  ],
  controllers: [
    PaymentIntentsController,
    InvoicesController,
    CheckoutsController,
    ChargesController,
    PaymentLinksController,
    CollectionTestHelpersController,
    HostedPagesController,
    ProviderReturnsController,
    VaultController,
  ],
  providers: [
    CollectionRepository,
    TargetsService,
    PaymentIntentsService,
    InvoicesService,
    CheckoutsService,
    CheckoutExpiryService,
    PaymentsService,
    ChargeOutcomesService,
    ChargesRepository,
    ChargesService,
    ChargeHooks,
    PaymentLinksService,
    SettlementService,
    CollectionTestHelpersService,
    CollectionProviders,
    SandboxCollectionProvider,
    HostedUrls,
    CheckoutPageRenderer,
    CardTokensService,
  ],
  exports: [
    ChargeOutcomesService,
    PaymentIntentsService,
    InvoicesService,
    CheckoutsService,
    ChargesService,
    ChargeHooks,
    SandboxCollectionProvider,
    CollectionProviders,
    CardTokensService,
  ],
})
export class CheckoutModule {}
