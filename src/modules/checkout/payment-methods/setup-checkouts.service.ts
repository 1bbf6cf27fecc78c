import { Injectable } from '@nestjs/common';
import type { ApplicationRef, Principal } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { SessionsService } from '../../auth/index.js';
import { CustomersService } from '../../customers/index.js';
import { CheckoutErrors } from '../checkout.errors.js';
import type { CheckoutResponse } from '../checkout.responses.js';
import { CheckoutsService } from '../checkouts/checkouts.service.js';
import type { ConfirmCheckoutDto } from '../dto/checkout.dto.js';
import { CardTokensService } from '../payments/card-tokens.service.js';
import { toPaymentMethodResponse, type PaymentMethodResponse } from '../payments/charges.responses.js';
import { CheckoutPaymentsService } from '../payments/checkout-payments.service.js';
import { CollectionProviders } from '../payments/providers/collection-providers.js';
import { SubscriptionCompletionService } from '../payments/subscription-completion.service.js';
import { sandboxCardReference } from '../payments/providers/sandbox-collection.provider.js';
import { PaymentMethodsService, type CardToSave } from './payment-methods.service.js';
import { isSetupIntentProvider, reachProvider } from '../payments/provider-call.js';
import type { Checkout } from '../entities/checkout.entity.js';
import type { CollectionProvider } from '../../../providers/ports/collection.port.js';

/** What the hosted page gets back from a setup checkout: the card saved. */
export interface CheckoutSetupResponse {
  object: 'checkout_setup';
  checkout: CheckoutResponse;
  payment_method: PaymentMethodResponse;
  redirect_url: string | null;
}

/**
 * `POST /checkouts/{id}/confirm` of a checkout in mode `setup` (docs/COLLECTION.md, "Saved payment
 * methods"): the card the page tokenized is saved to the checkout's customer, nothing is charged.
 * Test mode: the vault's token is used up and its card facts (and the sandbox outcome its number
 * selected) are saved, all in one transaction with the checkout locked: the payment method
 * (`payment_method.attached`), the customer's default when it has none, the checkout complete
 * (`checkout.completed`). Live mode: the provider saves its own token (Omise.js `tokn_…` to an Opn
 * customer; Stripe: the SetupIntent `seti_…` the page confirmed, read back with its PaymentMethod)
 * before that transaction, with nothing locked; the transaction records what it saved.
 */
@Injectable()
export class SetupCheckoutsService {
  constructor(
    private readonly payments: CheckoutPaymentsService,
    private readonly checkouts: CheckoutsService,
    private readonly cardTokens: CardTokensService,
    private readonly paymentMethods: PaymentMethodsService,
    private readonly customers: CustomersService,
    private readonly providers: CollectionProviders,
    private readonly sessions: SessionsService,
    private readonly subscriptionCompletion: SubscriptionCompletionService,
  ) {}

  async confirm(principal: Principal, id: string, dto: ConfirmCheckoutDto): Promise<CheckoutSetupResponse> {
    if (dto.payment_method_type !== 'card' || !dto.token || dto.payment_method !== undefined) {
      throw new AppError(
        CheckoutErrors.E7008,
        'A setup checkout saves a card: send {payment_method_type: "card", token}.',
      );
    }
    const token = dto.token;
    const applicationId = principal.application.id;
    const opened = await this.payments.payable(applicationId, id);
    const provider = this.providers.forCountry(opened.country, principal.livemode);
    // Live: the provider saves its own token first, with no transaction open and no row locked.
    const atProvider = provider.testOnly === true ? null : await this.saveAtProvider(provider, opened, token);
    const { checkout, paymentMethod } = await this.payments.transaction(async (manager) => {
      const checkout = await this.payments.lockPayable(applicationId, id, manager);
      const customerId = checkout.customer_id!;
      let save = atProvider;
      if (!save) {
        const card = await this.cardTokens.consume(applicationId, id, token, manager);
        save = {
          provider: provider.name,
          reference: sandboxCardReference(),
          providerCustomer: null,
          card,
          sandboxOutcome: card.sandbox_outcome,
        };
      }
      const paymentMethod = await this.paymentMethods.attach(applicationId, customerId, save, manager);
      if (checkout.subscription_id) await this.subscriptionCompletion.saved(checkout, paymentMethod, manager);
      else await this.customers.setDefaultPaymentMethod(applicationId, customerId, paymentMethod.id, manager, true);
      await this.checkouts.completeSetup(principal, checkout, paymentMethod.id, manager);
      return { checkout, paymentMethod };
    });
    await this.sessions.complete(checkout.session_id);
    const customer = await this.customers.find(applicationId, checkout.customer_id!);
    return {
      object: 'checkout_setup',
      checkout: this.checkouts.toResponse(principal, checkout),
      payment_method: toPaymentMethodResponse(paymentMethod, customer),
      redirect_url: checkout.success_url ? checkout.success_url.replaceAll('{CHECKOUT_ID}', checkout.id) : null,
    };
  }

  /**
   * The hosted page's intent for a live setup checkout whose provider saves cards by an intent the
   * browser confirms (Stripe: a SetupIntent, `usage: off_session`, on the customer's Stripe
   * customer, made on the first card; the Payment Element confirms it with `stripe.confirmSetup`),
   * asked with no transaction open and nothing recorded: the card is recorded by `confirm` with the
   * intent as its token, read back from the provider. The same intent when asked again. E7008
   * where the provider takes cards by token (Opn) or the checkout is not a setup checkout.
   */
  async prepareIntent(application: ApplicationRef, livemode: boolean, id: string): Promise<{ client_secret: string }> {
    const checkout = await this.payments.payable(application.id, id);
    const provider = this.providers.forCountry(checkout.country, livemode);
    if (checkout.mode !== 'setup' || !isSetupIntentProvider(provider)) {
      throw new AppError(CheckoutErrors.E7008, `This checkout saves no card through a ${provider.name} setup intent.`);
    }
    const customerId = checkout.customer_id!;
    const customer = await this.customers.find(application.id, customerId);
    const providerCustomer = await this.paymentMethods.providerCustomerOf(application.id, customerId, provider.name);
    const intent = await reachProvider(() =>
      provider.createSetupIntent({
        applicationId: application.id,
        customerId,
        checkoutId: checkout.id,
        email: customer?.email ?? null,
        providerCustomer,
      }),
    );
    return { client_secret: intent.clientSecret };
  }

  /**
   * The provider's token saved to the provider's customer of this customer (Opn: the Omise.js token
   * to an Opn customer, made on the first card): E7034 where the provider saves no cards, E7008
   * when it refuses the card, E5002 when it does not answer.
   */
  private async saveAtProvider(provider: CollectionProvider, checkout: Checkout, token: string): Promise<CardToSave> {
    if (!provider.saveCard) {
      throw new AppError(CheckoutErrors.E7034, `${provider.name} does not save cards.`);
    }
    const applicationId = checkout.application_id;
    const customerId = checkout.customer_id!;
    const customer = await this.customers.find(applicationId, customerId);
    const providerCustomer = await this.paymentMethods.providerCustomerOf(applicationId, customerId, provider.name);
    const saved = await reachProvider(() =>
      provider.saveCard!({
        applicationId,
        customerId,
        checkoutId: checkout.id,
        email: customer?.email ?? null,
        providerCustomer,
        token,
      }),
    );
    if ('failure' in saved) throw new AppError(CheckoutErrors.E7008, saved.failure.message);
    const { reference, customer: savedTo, ...card } = saved;
    return { provider: provider.name, reference, providerCustomer: savedTo, card, sandboxOutcome: null };
  }
}
