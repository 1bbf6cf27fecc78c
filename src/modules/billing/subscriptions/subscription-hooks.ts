import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Hook } from '../../../common/hooks/hook.js';
import type { Scope } from '../../../common/context/principal.js';
import type { Period } from './subscription-periods.js';
import type { CreatedSubscription } from './created-subscription.js';
import type { Subscription } from './entities/subscription.entity.js';

/**
 * A subscription moved into a new billing period: its trial ended (`trial_end`) or a period ended
 * and the next began (`subscription_cycle`), at the customer's clock time `at`.
 */
export interface PeriodRolled {
  subscription: Subscription;
  reason: 'trial_end' | 'subscription_cycle';
  ended: Period;
  started: Period;
  at: Date;
}

/**
 * The periods a batch of the subscriptions job rolled, in the order they rolled (a subscription far
 * behind rolls more than once), emitted once at the end of the batch, in its transaction, the
 * subscriptions still locked. Billing's period close makes their invoices here, set-based.
 */
export interface PeriodsRolled {
  rolls: PeriodRolled[];
  manager: EntityManager;
}

/**
 * A subscription was created through `POST /subscriptions` (not a subscription checkout, which
 * collects its own first invoice), in the creating transaction. Billing's collection makes its
 * first invoice here when it has no trial, and sets `latest_invoice` on `created.subscription`.
 */
export interface SubscriptionCreated {
  scope: Scope;
  created: CreatedSubscription;
  manager: EntityManager;
}

/**
 * A subscription is invoiced at once, in the transaction of the change, the subscription locked
 * and not yet changed in status: `subscription_cancel` (`POST /subscriptions/{id}/cancel` with
 * `invoice_now`: the current period's usage up to `at` and the pending items, the cancel's prorated
 * credit among them) or `subscription_update` (`proration_behavior: always_invoice`: the pending
 * items, the change's prorations among them). Billing's invoicing makes and finalizes the invoice.
 */
export interface InvoiceNow {
  subscription: Subscription;
  reason: 'subscription_cancel' | 'subscription_update';
  /** The customer's clock time of the change. */
  at: Date;
  manager: EntityManager;
}

@Injectable()
export class SubscriptionHooks {
  readonly periodsRolled = new Hook<PeriodsRolled>();
  readonly created = new Hook<SubscriptionCreated>();
  readonly invoiceNow = new Hook<InvoiceNow>();
}
