import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { countryOf, type Scope } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { SubscriptionCheckoutsService } from '../../billing/index.js';
import type { Customer } from '../../customers/index.js';
import { scalingFactorOf } from '../../ledger/index.js';
import { CheckoutErrors } from '../checkout.errors.js';
import type { CreateCheckoutDto } from '../dto/checkout.dto.js';
import type { Checkout } from '../entities/checkout.entity.js';
import { CollectionProviders } from '../payments/providers/collection-providers.js';
import { InvoicesService } from '../targets/invoices.service.js';
import { TargetsService } from '../targets/targets.service.js';
import type { OpeningFields } from './setup-mode.js';
import { assertCurrency, subscriptionRequest, type SubscriptionRequest } from './subscription-mode.js';

/** What is checked before the creating transaction opens. */
export interface PreparedSubscription {
  request: SubscriptionRequest;
  customer: Customer;
}

/**
 * Opening a subscription checkout (docs/BILLING.md, "Subscription checkout"): the request checked
 * and the customer read first (test mode only for now: E7073); then, in the checkout's
 * transaction, the subscription (`incomplete`, or `trialing`) with its promotion code redeemed, its
 * first invoice open (none in a trial), and the checkout's fields from that invoice.
 */
@Injectable()
export class SubscriptionOpening {
  constructor(
    private readonly subscriptions: SubscriptionCheckoutsService,
    private readonly invoices: InvoicesService,
    private readonly targets: TargetsService,
    private readonly providers: CollectionProviders,
  ) {}

  async prepare(scope: Scope, dto: CreateCheckoutDto): Promise<PreparedSubscription> {
    const request = subscriptionRequest(dto);
    const provider = this.providers.forCountry(countryOf(scope), scope.livemode);
    if (provider.testOnly !== true) {
      throw new AppError(
        CheckoutErrors.E7073,
        `Subscription checkouts through ${provider.name} are not available yet.`,
      );
    }
    const customer = await this.targets.chargeableCustomer(scope, dto.target_id);
    return { request, customer };
  }

  async open(
    scope: Scope,
    dto: CreateCheckoutDto,
    { request, customer }: PreparedSubscription,
    manager: EntityManager,
  ): Promise<{
    fields: OpeningFields;
    extra: Pick<Checkout, 'subscription_id' | 'invoice_id' | 'subscription_data'>;
  }> {
    const opened = await this.subscriptions.open(scope, request.subscription, request.promotionCode, manager);
    assertCurrency(dto, opened.currency);
    const subscriptionId = opened.subscription.id;
    const invoice = opened.trialing
      ? null
      : await this.invoices.openSubscriptionInvoice(
          scope,
          {
            customerId: customer.id,
            subscriptionId,
            currency: opened.currency,
            lines: opened.lines,
            subtotal: opened.totals.subtotal,
            total: opened.totals.total,
            description: dto.subscription_data?.description ?? null,
          },
          manager,
        );
    if (invoice) await this.subscriptions.linkFirstInvoice(scope.application.id, subscriptionId, invoice.id, manager);
    return {
      fields: {
        mode: 'subscription',
        target_type: 'customer',
        target_id: customer.id,
        amount: invoice ? Number(invoice.total) : 0,
        currency: opened.currency,
        scaling_factor: scalingFactorOf(opened.currency),
        customer_id: customer.id,
        transfer_destination: null,
        application_fee_amount: 0,
        payment_method_types: ['card'],
      },
      extra: {
        subscription_id: subscriptionId,
        invoice_id: invoice?.id ?? null,
        subscription_data: (dto.subscription_data ?? {}) as Record<string, unknown>,
      },
    };
  }
}
