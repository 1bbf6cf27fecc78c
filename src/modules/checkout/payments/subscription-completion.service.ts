import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SubscriptionCheckoutsService } from '../../billing/index.js';
import { CustomersService } from '../../customers/index.js';
import { savesDefault } from '../checkouts/subscription-mode.js';
import type { Charge } from '../entities/charge.entity.js';
import type { Checkout } from '../entities/checkout.entity.js';
import type { PaymentMethod } from '../entities/payment-method.entity.js';
import { PaymentMethodsService } from '../payment-methods/payment-methods.service.js';
import type { SandboxOutcome } from '../../../providers/ports/collection.port.js';
import { InvoicesService } from '../targets/invoices.service.js';
import { ChargesRepository } from './charges.repository.js';
import { sandboxCardReference } from './providers/sandbox-collection.provider.js';

/**
 * A subscription checkout's end, in the transaction that completes it (docs/BILLING.md,
 * "Subscription checkout"): the card is saved to the customer (`payment_method.attached`), becomes
 * the customer's default if it has none and the subscription's default unless
 * `save_default_payment_method` is `off`, and the subscription goes `active` (a trial stays
 * `trialing`) with `customer.subscription.updated`.
 */
@Injectable()
export class SubscriptionCompletionService {
  constructor(
    private readonly chargeRows: ChargesRepository,
    private readonly paymentMethods: PaymentMethodsService,
    private readonly customers: CustomersService,
    private readonly subscriptions: SubscriptionCheckoutsService,
    private readonly invoices: InvoicesService,
  ) {}

  /** A subscription checkout's subscription still waits for it (E7750 otherwise); held by the caller's transaction. */
  assertStartable(checkout: Checkout, manager: EntityManager): Promise<void> {
    return this.subscriptions.assertStartable(checkout.application_id, checkout.subscription_id!, manager);
  }

  /**
   * The subscription checkout expired unpaid (in the expiry's transaction): its first invoice is
   * voided, its subscription ends `incomplete_expired` and its redemption is given back.
   */
  async expired(checkout: Checkout, manager: EntityManager): Promise<void> {
    if (checkout.invoice_id) await this.invoices.voidLocked(checkout.application_id, checkout.invoice_id, manager);
    await this.subscriptions.checkoutExpired(checkout.application_id, checkout.subscription_id!, manager);
  }

  /** The first invoice was paid by `charge` (test mode: its card's facts come from the vault token). */
  async paid(checkout: Checkout, charge: Charge, manager: EntityManager): Promise<void> {
    const card = await this.chargeRows.findPaymentMethod(checkout.application_id, charge.payment_method_id!, manager);
    if (!card) throw new Error(`charge ${charge.id} has no payment method`);
    const saved = card.status
      ? card // paid with a card the customer had saved already
      : await this.paymentMethods.attach(
          checkout.application_id,
          checkout.customer_id!,
          {
            provider: charge.provider ?? 'sandbox',
            reference: sandboxCardReference(),
            providerCustomer: null,
            card: {
              brand: card.brand!,
              last4: card.last4!,
              exp_month: card.exp_month!,
              exp_year: card.exp_year!,
              fingerprint: card.fingerprint!,
              name: card.card_holder_name,
            },
            sandboxOutcome: card.sandbox_outcome as SandboxOutcome | null,
          },
          manager,
        );
    await this.saved(checkout, saved, manager);
  }

  /** The card `saved` (a trial's setup, or the payment's) is the defaults; the subscription starts. */
  async saved(checkout: Checkout, saved: PaymentMethod, manager: EntityManager): Promise<void> {
    const applicationId = checkout.application_id;
    await this.customers.setDefaultPaymentMethod(applicationId, checkout.customer_id!, saved.id, manager, true);
    await this.subscriptions.checkoutCompleted(
      applicationId,
      checkout.subscription_id!,
      savesDefault(checkout) ? saved.id : null,
      manager,
    );
  }
}
