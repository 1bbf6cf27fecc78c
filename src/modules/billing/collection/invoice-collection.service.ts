import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { EntityManager } from 'typeorm';
import { countryOf, type Scope } from '../../../common/context/principal.js';
import { RequestContext } from '../../../common/context/request-context.js';
import type { AllConfig } from '../../../config/app.config.js';
import {
  HostedUrls,
  InvoicesService,
  OffSessionInvoicesService,
  type Invoice,
  type InvoiceAttempt,
  type InvoiceFinalized,
  type InvoicePaid,
} from '../../checkout/index.js';
import { ApplicationsService } from '../../applications/index.js';
import { CustomersService } from '../../customers/index.js';
import {
  BillingClock,
  SubscriptionPaymentsService,
  subscriptionInvoiceLines,
  type Subscription,
  type SubscriptionCreated,
} from '../subscriptions/index.js';
import { dueDateAfter, nextAttemptAt } from './retry-schedule.js';

/**
 * Collection and dunning of subscription invoices (docs/BILLING.md, "Collection and retries").
 * Listens where invoices and subscriptions change, inside their transactions, and never calls a
 * provider there: a finalized invoice is scheduled (charge_automatically: its first attempt now, by
 * the customer's clock; send_invoice: due_date and the hosted invoice page), and InvoiceCollectionJob
 * makes the attempts after commit, through checkout's OffSessionInvoicesService.
 */
@Injectable()
export class InvoiceCollectionService {
  private readonly schedule: readonly number[];

  constructor(
    private readonly invoices: InvoicesService,
    private readonly offSession: OffSessionInvoicesService,
    private readonly subscriptions: SubscriptionPaymentsService,
    private readonly customers: CustomersService,
    private readonly billingClock: BillingClock,
    private readonly urls: HostedUrls,
    private readonly context: RequestContext,
    private readonly applications: ApplicationsService,
    config: ConfigService<AllConfig, true>,
  ) {
    this.schedule = config.get('app.billingRetryScheduleDays', { infer: true });
  }

  /**
   * POST /subscriptions without a trial: its first invoice (`subscription_create`), priced like a
   * subscription checkout's, finalized at once by the customer's clock, so it is collected like
   * every subscription invoice; it becomes the subscription's `latest_invoice`. A first invoice of
   * nothing to charge (metered items only) is not made: usage is billed at the period's end.
   */
  async firstInvoice({ scope, created, manager }: SubscriptionCreated): Promise<void> {
    const sub = created.subscription;
    if (sub.status === 'trialing') return;
    const { currency, lines, totals } = subscriptionInvoiceLines({
      currency: sub.currency,
      items: created.lines,
      coupon: created.coupon,
      taxRates: created.taxRates,
    });
    if (totals.total < 1) return;
    const draft = await this.invoices.createFirstSubscriptionDraft(
      invoiceScope(scope),
      {
        customerId: sub.customer_id,
        subscriptionId: sub.id,
        currency,
        lines,
        subtotal: totals.subtotal,
        total: totals.total,
        description: null,
        billingReason: 'subscription_create',
      },
      manager,
    );
    const at = await this.billingClock.nowFor(sub, manager);
    const open = await this.invoices.finalizeLocked(draft, manager, at);
    await this.subscriptions.linkLatestInvoice(sub.application_id, sub.id, open.id, manager);
    sub.latest_invoice = open.id;
  }

  /** InvoiceHooks.finalized: a subscription's invoice is set up for collection by its subscription's method. */
  async finalized({ invoice, manager }: InvoiceFinalized): Promise<void> {
    if (!invoice.subscription_id) return;
    const sub = await this.subscriptions.find(invoice.application_id, invoice.subscription_id, manager);
    if (!sub) return;
    const now = await this.billingClock.nowFor(sub, manager);
    if (sub.collection_method === 'charge_automatically') {
      await this.invoices.recordCollection(
        invoice,
        { collection_method: 'charge_automatically', next_payment_attempt: now, test_clock_id: sub.test_clock_id },
        manager,
      );
      return;
    }
    // The request's application when there is one, else (a job: billing's period close) its slug read
    // through this transaction: the hosted page's address never depends on who finalized the invoice.
    const application = this.context.optionalApplication;
    const slug =
      application?.id === invoice.application_id
        ? application.slug
        : await this.applications.slugIn(manager, invoice.application_id);
    await this.invoices.recordCollection(
      invoice,
      {
        collection_method: 'send_invoice',
        due_date: dueDateAfter(now, sub.days_until_due ?? 30),
        hosted_invoice_url: slug ? this.urls.invoice(slug, invoice.id) : null,
        test_clock_id: sub.test_clock_id,
      },
      manager,
    );
  }

  /** InvoiceHooks.paid: the subscription of a collected invoice is paid up. */
  async paid({ invoice, manager }: InvoicePaid): Promise<void> {
    if (!invoice.subscription_id || !invoice.collection_method) return;
    await this.subscriptions.invoicePaid(invoice.application_id, invoice.subscription_id, manager);
  }

  /**
   * One due attempt on `invoice` (claimed by the job): the subscription's default payment method,
   * else the customer's default at this moment (so a new default is tried at the next retry).
   */
  async attempt(scope: Scope, invoice: Invoice): Promise<InvoiceAttempt> {
    const applicationId = invoice.application_id;
    const sub = invoice.subscription_id ? await this.subscriptions.find(applicationId, invoice.subscription_id) : null;
    const methodId = sub?.default_payment_method ?? (await this.customerDefault(applicationId, invoice.customer_id));
    return this.offSession.attempt(scope, invoice.id, invoice.next_payment_attempt!, methodId, (locked, manager) =>
      this.failed(locked, sub, manager),
    );
  }

  /**
   * In the failed attempt's transaction: the attempt counted with `invoice.payment_failed`, the next
   * one scheduled from BILLING_RETRY_SCHEDULE, the subscription past_due, and after the last retry
   * canceled or unpaid. The first invoice of an `incomplete` subscription is not retried (as
   * Stripe's): the subscription expires 23 hours after creation unless it is paid meanwhile.
   */
  private async failed(invoice: Invoice, sub: Subscription | null, manager: EntityManager): Promise<void> {
    const scheduledAt = invoice.next_payment_attempt!;
    const retries = sub && sub.status !== 'incomplete';
    const next = retries ? nextAttemptAt(scheduledAt, Number(invoice.attempt_count) + 1, this.schedule) : null;
    await this.invoices.recordPaymentFailure(invoice, next, manager);
    if (!sub || !retries) return;
    await this.subscriptions.paymentFailed(sub.application_id, sub.id, manager);
    if (next === null) await this.subscriptions.retriesExhausted(sub.application_id, sub.id, scheduledAt, manager);
  }

  private async customerDefault(applicationId: string, customerId: string): Promise<string | null> {
    const customer = (await this.customers.byIds(applicationId, [customerId])).get(customerId);
    const id = customer?.invoice_settings.default_payment_method;
    return typeof id === 'string' ? id : null;
  }
}

/**
 * The country a subscription's invoice is collected in: the request's X-Country when it sent one,
 * else the application's first country (subscriptions are not country-scoped; the invoice is).
 */
function invoiceScope(scope: Scope): Scope {
  if (scope.country) return scope;
  return { ...scope, country: scope.application.countries[0] ?? countryOf(scope) };
}
