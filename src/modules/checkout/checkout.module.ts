import { Module } from '@nestjs/common';
import { ProviderAdaptersModule } from '../../providers/provider-adapters.js';
import { DatabaseModule } from '../../common/database/database.module.js';
import { AccountsModule } from '../accounts/index.js';
import { CustomersModule } from '../customers/index.js';
import { LedgerModule } from '../ledger/index.js';
import { SubscriptionsModule } from '../billing/index.js';
import { ChargeHooks } from './payments/charge-hooks.js';
import { InvoiceHooks } from './targets/invoice-hooks.js';
import { ChargeOutcomesService } from './payments/charge-outcomes.service.js';
import { SubscriptionCompletionService } from './payments/subscription-completion.service.js';
import { SubscriptionOpening } from './checkouts/subscription-opening.service.js';
import { ChargeReconciliationJob } from './payments/charge-reconciliation.job.js';
import { AuthorizationExpiryJob } from './payments/authorization-expiry.job.js';
import { CaptureClaimRecoveryJob } from './payments/capture-claim-recovery.job.js';
import { PaymentCapturesService } from './payments/payment-captures.service.js';
import { ChargesRepository } from './payments/charges.repository.js';
import { ChargesService } from './payments/charges.service.js';
import { CheckoutExpiryJob } from './payments/checkout-expiry.job.js';
import { CheckoutsService } from './checkouts/checkouts.service.js';
import { ChargesController } from './payments/charges.controller.js';
import { CheckoutsController } from './checkouts/checkouts.controller.js';
import { CollectionTestHelpersController } from './payments/test-helpers.controller.js';
import { InvoicesController } from './targets/invoices.controller.js';
import { PaymentIntentsController } from './targets/payment-intents.controller.js';
import { PaymentLinksController } from './checkouts/payment-links.controller.js';
import { CheckoutsRepository } from './checkouts/checkouts.repository.js';
import { PaymentLinksRepository } from './checkouts/payment-links.repository.js';
import { CardTokensRepository } from './payments/card-tokens.repository.js';
import { InvoicesRepository } from './targets/invoices.repository.js';
import { PaymentIntentsRepository } from './targets/payment-intents.repository.js';
import { Charge } from './entities/charge.entity.js';
import { Checkout } from './entities/checkout.entity.js';
import { PaymentMethod } from './entities/payment-method.entity.js';
import { CardToken } from './entities/card-token.entity.js';
import { CardTokensService } from './payments/card-tokens.service.js';
import { VaultController } from './payments/vault.controller.js';
import { Invoice } from './entities/invoice.entity.js';
import { PaymentIntent } from './entities/payment-intent.entity.js';
import { PaymentLink } from './entities/payment-link.entity.js';
import { CheckoutPageRenderer } from './hosted/checkout-page.renderer.js';
import { HostedCheckoutsService } from './hosted/hosted-checkouts.service.js';
import { SandboxPaymentPage } from './hosted/sandbox-payment-page.js';
import { PromotionCodeEntryService } from './hosted/promotion-code-entry.service.js';
import { HostedInvoicesService } from './hosted/hosted-invoices.service.js';
import { HostedPagesController } from './hosted/hosted-pages.controller.js';
import { ProviderReturnsController } from './hosted/provider-returns.controller.js';
import { HostedUrls } from './checkouts/hosted-urls.js';
import { InvoicesService } from './targets/invoices.service.js';
import { PaymentIntentsService } from './targets/payment-intents.service.js';
import { PaymentLinksService } from './checkouts/payment-links.service.js';
import { CardIntentsService } from './payments/card-intents.service.js';
import { CheckoutPaymentsService } from './payments/checkout-payments.service.js';
import { ConfirmCheckoutService } from './payments/confirm-checkout.service.js';
import { CollectionProviders } from './payments/providers/collection-providers.js';
import { SandboxCollectionProvider } from './payments/providers/sandbox-collection.provider.js';
import { ChargeJournals } from './payments/charge.journals.js';
import { TargetsService } from './targets/targets.service.js';
import { PaymentMethodsRepository } from './payment-methods/payment-methods.repository.js';
import { PaymentMethodsService } from './payment-methods/payment-methods.service.js';
import { PaymentMethodsController } from './payment-methods/payment-methods.controller.js';
import { CustomerPaymentMethodsController } from './payment-methods/customer-payment-methods.controller.js';
import { SetupCheckoutsService } from './payment-methods/setup-checkouts.service.js';
import { SavedCardOffersService } from './payment-methods/saved-card-offers.service.js';
import { OffSessionPaymentsService } from './payment-methods/off-session-payments.service.js';
import { OffSessionInvoicesService } from './payment-methods/off-session-invoices.service.js';
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
    SubscriptionsModule,
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
    PaymentMethodsController,
    CustomerPaymentMethodsController,
  ],
  providers: [
    CheckoutsRepository,
    PaymentIntentsRepository,
    InvoicesRepository,
    PaymentLinksRepository,
    CardTokensRepository,
    TargetsService,
    PaymentIntentsService,
    InvoicesService,
    CheckoutsService,
    CheckoutExpiryJob,
    CheckoutPaymentsService,
    ConfirmCheckoutService,
    CardIntentsService,
    HostedCheckoutsService,
    SandboxPaymentPage,
    PromotionCodeEntryService,
    HostedInvoicesService,
    ChargeOutcomesService,
    SubscriptionCompletionService,
    SubscriptionOpening,
    ChargeReconciliationJob,
    PaymentCapturesService,
    AuthorizationExpiryJob,
    CaptureClaimRecoveryJob,
    ChargesRepository,
    ChargesService,
    ChargeHooks,
    InvoiceHooks,
    PaymentLinksService,
    ChargeJournals,
    CollectionTestHelpersService,
    CollectionProviders,
    SandboxCollectionProvider,
    HostedUrls,
    CheckoutPageRenderer,
    CardTokensService,
    PaymentMethodsRepository,
    PaymentMethodsService,
    SetupCheckoutsService,
    SavedCardOffersService,
    OffSessionPaymentsService,
    OffSessionInvoicesService,
  ],
  exports: [
    ChargeOutcomesService,
    PaymentIntentsService,
    InvoicesService,
    InvoiceHooks,
    CheckoutsService,
    ChargesService,
    ChargeHooks,
    SandboxCollectionProvider,
    CollectionProviders,
    CardTokensService,
    PaymentMethodsService,
    OffSessionPaymentsService,
    OffSessionInvoicesService,
    HostedUrls,
  ],
})
export class CheckoutModule {}
