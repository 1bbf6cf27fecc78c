import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EventType } from '../../common/events/event-types.js';
import type { Row, WalletApi } from './wallet-api.js';

/**
 * `events:trigger TYPE`: how each event type the service emits is made to happen in test mode,
 * through the public API only (the sandbox cards, destinations and identifiers, and the test
 * helpers), as a partner's program would. One map: test/e2e/events/events-cli-remote.e2e-spec.ts
 * fails when an event type has no recipe here, and triggers every one.
 */
export const SANDBOX_CARDS = { visa: '4242424242424242', declined: '4000000000000002', disputed: '4000000000000259' };
/**
 * Sandbox behaviours the recipes rely on (docs/PAYOUTS.md, docs/METERING.md): a bookbank account
 * number ending in 0006 has its transfers held (the payout stays pending, so it can be canceled);
 * one ending in 1234 is sent (in transit); a meter event identifier with this prefix is refused
 * for good by the billing provider.
 */
export const SANDBOX_HELD_ACCOUNT_SUFFIX = '0006';
export const SANDBOX_SENT_ACCOUNT_SUFFIX = '1234';
export const SANDBOX_REFUSED_METER_EVENT_PREFIX = 'sandbox_refuse_';
/** A test-mode report run in this currency (ISO 4217's code for testing) fails (docs/REPORTS.md). */
export const SANDBOX_FAILING_REPORT_CURRENCY = 'XTS';

/**
 * Some events are made by the deployment's worker (the process with RUN_JOBS=true), not by the
 * request: a test clock's advance (every 15 s), the invoicing job's notices and the credit grant
 * job's expiries (every 15 s), and meter event forwarding (every 250 ms). Their
 * recipes wait until the worker has done it, polling the object, and say so if it never does.
 */
export const WORKER_WAIT = { everyMs: 500, timeoutMs: 120_000 };

async function waitFor<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + WORKER_WAIT.timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(
        `${what} did not happen within ${WORKER_WAIT.timeoutMs / 1000} s: the deployment's worker (RUN_JOBS=true) does it; is one running?`,
      );
    await sleep(WORKER_WAIT.everyMs);
  }
}

interface Paid {
  checkout: Row;
  charge: Row & { status: string };
}

/** A payment intent (or the given target) with its checkout, paid on the hosted page's calls. */
async function pay(
  api: WalletApi,
  cardNumber: string,
  target?: { target_type: string; target_id: string },
): Promise<Paid> {
  const goal =
    target ??
    (await api
      .post('/payment_intents', { amount: 10000, currency: 'THB', metadata: { triggered_by: 'cli' } })
      .then((pi) => ({ target_type: 'payment_intent', target_id: pi.id })));
  const checkout = await api.post<Row & { session: string }>('/checkouts', goal);
  const token = await api.post(
    `${api.appRoot}/vault/tokens`,
    { card: { number: cardNumber, exp_month: 12, exp_year: 2099, cvc: '123' } },
    checkout.session,
  );
  return api.post<Paid>(
    `/checkouts/${checkout.id}/confirm`,
    { payment_method_type: 'card', token: token.id },
    checkout.session,
  );
}

async function dispute(api: WalletApi): Promise<Row> {
  const paid = await pay(api, SANDBOX_CARDS.disputed);
  const disputes = await api.get<{ data: Array<Row & { charge: Row | string }> }>('/disputes?limit=100');
  const found = disputes.data.find((d) => (typeof d.charge === 'string' ? d.charge : d.charge.id) === paid.charge.id);
  if (!found) throw new Error(`the sandbox opened no dispute on charge ${paid.charge.id}`);
  return found;
}

/** A payout of released funds to a new bookbank account whose number ends in `suffix` (the sandbox's behaviour). */
async function payout(api: WalletApi, suffix = SANDBOX_SENT_ACCOUNT_SUFFIX): Promise<Row> {
  await pay(api, SANDBOX_CARDS.visa);
  await api.post('/test_helpers/holds/release');
  const own = await api.get<{ data: Row[] }>('/accounts?filter[type]=own');
  const bank = await api.post('/bank_accounts', {
    account: own.data[0].id,
    type: 'bookbank',
    account_holder_name: 'Somchai Jaidee',
    target: 'THB',
    extra_fields: { bankCode: '004', accountNumber: `${String(Date.now()).slice(-6)}${suffix}` },
  });
  return api.post('/payouts', { amount: 100, currency: 'THB', destination: bank.id });
}

/** A customer with a card saved through a setup checkout (the hosted page's calls). */
async function savedCard(api: WalletApi, cardNumber: string = SANDBOX_CARDS.visa) {
  const customer = await api.post('/customers', { name: 'Somchai Jaidee' });
  const checkout = await api.post<Row & { session: string }>('/checkouts', {
    mode: 'setup',
    target_type: 'customer',
    target_id: customer.id,
  });
  const token = await api.post(
    `${api.appRoot}/vault/tokens`,
    { card: { number: cardNumber, exp_month: 12, exp_year: 2099, cvc: '123' } },
    checkout.session,
  );
  const saved = await api.post<{ payment_method: Row }>(
    `/checkouts/${checkout.id}/confirm`,
    { payment_method_type: 'card', token: token.id },
    checkout.session,
  );
  return { customer, paymentMethod: saved.payment_method };
}

/** A licensed monthly price of a new product. */
async function monthlyPrice(api: WalletApi): Promise<Row> {
  const product = await api.post('/products', { name: 'events:trigger plan' });
  return api.post('/prices', {
    product_id: product.id,
    currency: 'THB',
    unit_amount: 29900,
    recurring: { interval: 'month' },
  });
}

/** A trial subscription of a new customer to a new monthly price. */
async function subscription(api: WalletApi): Promise<Row> {
  const [customer, price] = await Promise.all([api.post('/customers', { name: 'Somchai Jaidee' }), monthlyPrice(api)]);
  return api.post('/subscriptions', {
    customer_id: customer.id,
    items: [{ price_id: price.id, quantity: 1 }],
    trial_period_days: 14,
  });
}

const coupon = (api: WalletApi) => api.post('/coupons', { percent_off: 10, duration: 'once', name: 'events:trigger' });
const taxRate = (api: WalletApi) =>
  api.post('/tax_rates', { display_name: 'VAT', percentage: 7, inclusive: false, country: 'TH' });
const promotionCode = async (api: WalletApi) =>
  api.post('/promotion_codes', { coupon_id: (await coupon(api)).id, code: `TRIGGER${Date.now()}` });
const testClock = (api: WalletApi) =>
  api.post('/test_helpers/test_clocks', { frozen_time: new Date().toISOString(), name: 'events:trigger' });
const DAY_MS = 86_400_000;

/** Advances the clock to `frozen_time` and waits until the worker has moved everything due and made it ready. */
async function advanceUntilReady(api: WalletApi, clock: Row, frozenTime: Date): Promise<Row> {
  await api.post(`/test_helpers/test_clocks/${clock.id}/advance`, { frozen_time: frozenTime.toISOString() });
  return waitFor(
    `test clock ${clock.id} becoming ready`,
    () => api.get<Row & { status: string }>(`/test_helpers/test_clocks/${clock.id}`),
    (read) => read.status === 'ready',
  );
}

/** A 14-day trial subscription of a new customer on a new test clock to a new monthly price (its first period ends with the trial). */
async function clockedTrial(api: WalletApi): Promise<{ clock: Row; subscription: Row }> {
  const clock = await testClock(api);
  const [customer, price] = await Promise.all([
    api.post('/customers', { name: 'Somchai Jaidee', test_clock: clock.id }),
    monthlyPrice(api),
  ]);
  const subscription = await api.post('/subscriptions', {
    customer_id: customer.id,
    items: [{ price_id: price.id, quantity: 1 }],
    trial_period_days: 14,
  });
  return { clock, subscription };
}

/** `frozen_time` moved by `ms`. */
const later = (clock: Row, ms: number) => new Date(Date.parse(clock.frozen_time as string) + ms);

/** Waits until the application has an event of `type` whose object passes `about` (the newest 100 are read). */
async function eventOf(api: WalletApi, type: string, about: (object: Row) => boolean): Promise<Row> {
  const found = await waitFor(
    `a ${type} event`,
    () =>
      api.get<{ data: Array<Row & { data: { object: Row } }> }>(
        `/events?filter[type]=${encodeURIComponent(type)}&limit=100`,
      ),
    (page) => page.data.some((event) => about(event.data.object)),
  );
  return found.data.find((event) => about(event.data.object))!;
}

/**
 * A 14-day trial subscription on a test clock, the clock advanced to 3 days before the trial ends
 * (plus a minute): the worker sends the notice as it moves the clock.
 */
async function trialWillEnd(api: WalletApi): Promise<Row> {
  const { clock } = await clockedTrial(api);
  return advanceUntilReady(api, clock, later(clock, 11 * DAY_MS + 60_000));
}

/**
 * The same clock advanced into the last 3 days of the subscription's period: the worker's invoicing
 * job notices the period ending and records `invoice.upcoming` with the next invoice's preview.
 */
async function invoiceUpcoming(api: WalletApi): Promise<Row> {
  const { clock, subscription } = await clockedTrial(api);
  await advanceUntilReady(api, clock, later(clock, 11 * DAY_MS + 60_000));
  return eventOf(api, 'invoice.upcoming', (invoice) => invoice.subscription === subscription.id);
}

/**
 * The clock advanced past the period's end (the trial's): the worker rolls the subscription into
 * its next period and the period close makes the ended period's draft invoice (`invoice.created`).
 */
async function invoiceCreated(api: WalletApi): Promise<Row> {
  const { clock, subscription } = await clockedTrial(api);
  await advanceUntilReady(api, clock, later(clock, 14 * DAY_MS + 60_000));
  return eventOf(api, 'invoice.created', (invoice) => invoice.subscription === subscription.id);
}

/**
 * A meter event the sandbox billing provider refuses for good: the worker's forwarder abandons it
 * at its first attempt (delivery_status `failed`, E8021) and records the event.
 */
async function meterEventDeliveryFailed(api: WalletApi): Promise<Row> {
  const suffix = randomUUID().slice(0, 8);
  const [meter, customer] = await Promise.all([
    api.post('/meters', {
      display_name: 'events:trigger',
      event_name: `events_trigger_${suffix}`,
      value_settings: { event_payload_key: 'value' },
    }),
    api.post('/customers', { name: 'Somchai Jaidee' }),
  ]);
  const event = await api.post('/meter_events', {
    event_name: meter.event_name,
    customer_id: customer.id,
    payload: { value: '1' },
    identifier: `${SANDBOX_REFUSED_METER_EVENT_PREFIX}${randomUUID()}`,
  });
  return waitFor(
    `meter event ${event.id} failing delivery`,
    () => api.get<Row & { delivery_status: string }>(`/meter_events/${event.id}`),
    (read) => read.delivery_status === 'failed',
  );
}

/** A report run over the last day, finished by the worker (ReportRunsJob): `currency` XTS fails. */
async function reportRun(api: WalletApi, status: 'succeeded' | 'failed'): Promise<Row> {
  const end = new Date();
  const run = await api.post('/reporting/report_runs', {
    report_type: 'balance.summary.1',
    parameters: {
      interval_start: new Date(end.getTime() - 24 * 3600 * 1000).toISOString(),
      interval_end: end.toISOString(),
      ...(status === 'failed' ? { currency: SANDBOX_FAILING_REPORT_CURRENCY } : {}),
    },
  });
  return waitFor(
    `report run ${run.id} finishing`,
    () => api.get<Row & { status: string }>(`/reporting/report_runs/${run.id}`),
    (read) => read.status === status,
  );
}

/** A test-mode run over a sandbox payout, which settles one charge the ledger never booked (docs/RECONCILIATION.md). */
async function reconciliationMismatch(api: WalletApi): Promise<Row> {
  const run = await api.post('/reconciliation_runs', { provider: 'sandbox', payout: `po_sandbox_${Date.now()}` });
  return waitFor(
    `reconciliation run ${run.id} finishing`,
    () => api.get<Row & { status: string }>(`/reconciliation_runs/${run.id}`),
    (read) => read.status !== 'pending',
  );
}

/** A webhook endpoint (on a name that never resolves, RFC 2606; test mode takes it), disabled by the test helper. */
async function webhookEndpointDisabled(api: WalletApi): Promise<Row> {
  const endpoint = await api.post('/webhook_endpoints', {
    url: 'https://events-trigger.invalid/webhooks',
    enabled_events: ['webhook_endpoint.disabled'],
    description: 'events:trigger webhook_endpoint.disabled',
  });
  return api.post(`/test_helpers/webhook_endpoints/${endpoint.id}/disable`);
}

/** A new customer's THB 100.00 of promotional credit. */
async function creditGrant(api: WalletApi): Promise<Row> {
  const customer = await api.post('/customers', { name: 'events:trigger credit', currency: 'THB' });
  return api.post(`/customers/${customer.id}/credit_grants`, {
    amount: 10000,
    currency: 'THB',
    category: 'promotional',
    name: 'events:trigger',
  });
}

/**
 * THB 100.00 of credit expiring a day later, to a customer on a new test clock; the clock advanced
 * past `expires_at`: the worker's credit grant job expires it (`billing.credit_grant.expired`).
 */
async function creditGrantExpired(api: WalletApi): Promise<Row> {
  const clock = await testClock(api);
  const customer = await api.post('/customers', {
    name: 'events:trigger credit',
    currency: 'THB',
    test_clock: clock.id,
  });
  const grant = await api.post(`/customers/${customer.id}/credit_grants`, {
    amount: 10000,
    currency: 'THB',
    category: 'promotional',
    name: 'events:trigger',
    expires_at: later(clock, DAY_MS).toISOString(),
  });
  await advanceUntilReady(api, clock, later(clock, DAY_MS + 60_000));
  return waitFor(
    `credit grant ${grant.id} expiring`,
    () => api.get<Row & { status: string }>(`/credit_grants/${grant.id}`),
    (read) => read.status === 'expired',
  );
}

type Recipe = (api: WalletApi) => Promise<unknown>;

const payWith =
  (card: string): Recipe =>
  (api) =>
    pay(api, card);
/** A manual-capture payment intent authorized by the sandbox's visa card on its checkout. */
async function authorized(api: WalletApi): Promise<Row> {
  const pi = await api.post('/payment_intents', {
    amount: 100000,
    currency: 'THB',
    capture_method: 'manual',
    payment_method_types: ['card'],
    metadata: { triggered_by: 'cli' },
  });
  await pay(api, SANDBOX_CARDS.visa, { target_type: 'payment_intent', target_id: pi.id });
  return pi;
}
const capture: Recipe = async (api) =>
  api.post(`/payment_intents/${(await authorized(api)).id}/capture`, { amount_to_capture: 60000 });

const refund =
  (amount?: number): Recipe =>
  async (api) => {
    const paid = await pay(api, SANDBOX_CARDS.visa);
    return api.post('/refunds', { charge_id: paid.charge.id, ...(amount ? { amount } : {}) });
  };

export const TRIGGERS: Partial<Record<EventType, Recipe>> = {
  'checkout.completed': payWith(SANDBOX_CARDS.visa),
  'charge.succeeded': payWith(SANDBOX_CARDS.visa),
  'payment_intent.succeeded': payWith(SANDBOX_CARDS.visa),
  'charge.failed': payWith(SANDBOX_CARDS.declined),
  'payment_intent.amount_capturable_updated': authorized,
  'charge.captured': capture,
  'payment_intent.canceled': async (api) => api.post(`/payment_intents/${(await authorized(api)).id}/cancel`),
  // The authorization's 7 days run on the service clock, which no test clock moves: the test helper ends them now.
  'charge.expired': async (api) =>
    api.post(`/test_helpers/payment_intents/${(await authorized(api)).id}/expire_authorization`),
  'payment_intent.payment_failed': payWith(SANDBOX_CARDS.declined),
  'charge.dispute.created': payWith(SANDBOX_CARDS.disputed),
  'charge.dispute.updated': async (api) =>
    api.post(`/disputes/${(await dispute(api)).id}`, { metadata: { triggered_by: 'cli' } }),
  'charge.dispute.closed': async (api) => api.post(`/test_helpers/disputes/${(await dispute(api)).id}/win`),
  'checkout.expired': async (api) => {
    const pi = await api.post('/payment_intents', { amount: 10000, currency: 'THB' });
    const checkout = await api.post('/checkouts', { target_type: 'payment_intent', target_id: pi.id });
    return api.post(`/test_helpers/checkouts/${checkout.id}/expire`);
  },
  'invoice.created': invoiceCreated,
  'invoice.upcoming': invoiceUpcoming,
  'invoice.finalized': async (api) => {
    const customer = await api.post('/customers', { name: 'Somchai Jaidee' });
    const draft = await api.post('/invoices', {
      customer_id: customer.id,
      currency: 'THB',
      line_items: [{ description: 'events:trigger', amount: 10000, quantity: 1 }],
    });
    return api.post(`/invoices/${draft.id}/finalize`);
  },
  'invoice.paid': async (api) => {
    const customer = await api.post('/customers', { name: 'Somchai Jaidee' });
    const draft = await api.post('/invoices', {
      customer_id: customer.id,
      currency: 'THB',
      line_items: [{ description: 'events:trigger', amount: 10000, quantity: 1 }],
    });
    const invoice = await api.post(`/invoices/${draft.id}/finalize`);
    return pay(api, SANDBOX_CARDS.visa, { target_type: 'invoice', target_id: invoice.id });
  },
  'invoice.updated': async (api) => {
    const [customer, price, code] = await Promise.all([
      api.post('/customers', { name: 'Somchai Jaidee' }),
      monthlyPrice(api),
      promotionCode(api),
    ]);
    const checkout = await api.post<Row & { session: string; url: string }>('/checkouts', {
      mode: 'subscription',
      target_type: 'customer',
      target_id: customer.id,
      line_items: [{ price: price.id, quantity: 1 }],
      allow_promotion_codes: true,
    });
    // The hosted page's own call, the code the buyer types (docs/BILLING.md, "Subscription checkout"),
    // sent to the host the CLI talks to (the page's PUBLIC_URL may name another one).
    const page = `${new URL(api.appRoot).origin}${new URL(checkout.url).pathname}`;
    return api.post(`${page}/promotion_code`, { code: code.code }, checkout.session);
  },
  // A subscription charged automatically to a declining card: its first invoice's attempt fails at
  // once where the deployment runs jobs (the invoice collection job, RUN_JOBS).
  'invoice.payment_failed': async (api) => {
    const [{ customer, paymentMethod }, price] = await Promise.all([
      savedCard(api, SANDBOX_CARDS.declined),
      monthlyPrice(api),
    ]);
    return api.post('/subscriptions', {
      customer_id: customer.id,
      items: [{ price_id: price.id, quantity: 1 }],
      collection_method: 'charge_automatically',
      default_payment_method: paymentMethod.id,
    });
  },
  'charge.refunded': refund(),
  'refund.created': refund(),
  'refund.updated': refund(),
  'refund.succeeded': refund(),
  'refund.failed': refund(4004), // the sandbox's failing refund amount
  'report_run.succeeded': (api) => reportRun(api, 'succeeded'),
  'report_run.failed': (api) => reportRun(api, 'failed'),
  'reconciliation.mismatch': reconciliationMismatch,
  'balance.available': async (api) => {
    await pay(api, SANDBOX_CARDS.visa);
    return api.post('/test_helpers/holds/release');
  },
  'account.updated': async (api) => {
    const account = await api.post('/accounts', { name: 'Triggered Co., Ltd.' });
    return api.post(`/test_helpers/accounts/${account.id}/verify`);
  },
  'bank_account.created': async (api) => {
    const own = await api.get<{ data: Row[] }>('/accounts?filter[type]=own');
    return api.post('/bank_accounts', {
      account: own.data[0].id,
      type: 'promptpay_phone',
      account_holder_name: 'Somchai Jaidee',
      phone_number: '+66812345678',
    });
  },
  'payout.created': payout,
  'payout.updated': payout,
  'payout.paid': async (api) => api.post(`/test_helpers/payouts/${(await payout(api)).id}/paid`),
  'payout.failed': async (api) => api.post(`/test_helpers/payouts/${(await payout(api)).id}/fail`),
  'payout.canceled': async (api) => api.post(`/payouts/${(await payout(api, SANDBOX_HELD_ACCOUNT_SUFFIX)).id}/cancel`),
  'payment_intent.requires_action': async (api) => {
    const { customer, paymentMethod } = await savedCard(api, '4000002500003155');
    return api.post('/payment_intents', {
      amount: 10000,
      currency: 'THB',
      customer_id: customer.id,
      payment_method: paymentMethod.id,
      off_session: true,
      confirm: true,
    });
  },
  'payment_method.attached': (api) => savedCard(api),
  'payment_method.detached': async (api) =>
    api.post(`/payment_methods/${(await savedCard(api)).paymentMethod.id}/detach`),
  'product.created': (api) => api.post('/products', { name: 'events:trigger product' }),
  'product.updated': async (api) => {
    const product = await api.post('/products', { name: 'events:trigger product' });
    return api.post(`/products/${product.id}`, { metadata: { triggered_by: 'cli' } });
  },
  'price.created': monthlyPrice,
  'price.updated': async (api) =>
    api.post(`/prices/${(await monthlyPrice(api)).id}`, { metadata: { triggered_by: 'cli' } }),
  'coupon.created': coupon,
  'coupon.updated': async (api) =>
    api.post(`/coupons/${(await coupon(api)).id}`, { metadata: { triggered_by: 'cli' } }),
  'coupon.deleted': async (api) => api.delete(`/coupons/${(await coupon(api)).id}`),
  'promotion_code.created': promotionCode,
  'promotion_code.updated': async (api) =>
    api.post(`/promotion_codes/${(await promotionCode(api)).id}`, { metadata: { triggered_by: 'cli' } }),
  'tax_rate.created': taxRate,
  'tax_rate.updated': async (api) =>
    api.post(`/tax_rates/${(await taxRate(api)).id}`, { metadata: { triggered_by: 'cli' } }),
  'test_helpers.test_clock.created': testClock,
  'test_helpers.test_clock.advancing': async (api) => {
    const clock = await testClock(api);
    return api.post(`/test_helpers/test_clocks/${clock.id}/advance`, {
      frozen_time: new Date(Date.parse(clock.frozen_time as string) + 86_400_000).toISOString(),
    });
  },
  'test_helpers.test_clock.ready': async (api) => {
    const clock = await testClock(api);
    return advanceUntilReady(api, clock, new Date(Date.parse(clock.frozen_time as string) + DAY_MS));
  },
  'test_helpers.test_clock.deleted': async (api) =>
    api.delete(`/test_helpers/test_clocks/${(await testClock(api)).id}`),
  'customer.subscription.created': subscription,
  'customer.subscription.updated': async (api) =>
    api.post(`/subscriptions/${(await subscription(api)).id}`, { metadata: { triggered_by: 'cli' } }),
  'customer.subscription.deleted': async (api) => api.post(`/subscriptions/${(await subscription(api)).id}/cancel`),
  'customer.subscription.trial_will_end': trialWillEnd,
  'meter_event.delivery_failed': meterEventDeliveryFailed,
  'webhook_endpoint.disabled': webhookEndpointDisabled,
  'billing.credit_grant.created': creditGrant,
  'billing.credit_grant.expired': creditGrantExpired,
  'billing.credit_grant.voided': async (api) => api.post(`/credit_grants/${(await creditGrant(api)).id}/void`),
};

/**
 * Event types the public API cannot make happen, and why. Empty: every type the service emits has a
 * recipe above, and the e2e test keeps it so (a new type needs a recipe, or a test helper first).
 */
export const NOT_TRIGGERABLE: Partial<Record<EventType, string>> = {};
