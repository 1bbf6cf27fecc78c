import type { EventType } from '../../common/events/event-types.js';
import type { Row, WalletApi } from './wallet-api.js';

/**
 * `events:trigger TYPE`: how each event type the service emits is made to happen in test mode,
 * through the public API only (the sandbox cards and the test helpers), as a partner's program
 * would. One map: src/cli/remote/triggers.spec.ts fails when an event type has neither a recipe
 * here nor a reason in NOT_TRIGGERABLE, so a new event type names what is missing.
 */
export const SANDBOX_CARDS = { visa: '4242424242424242', declined: '4000000000000002', disputed: '4000000000000259' };

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

async function payout(api: WalletApi): Promise<Row> {
  await pay(api, SANDBOX_CARDS.visa);
  await api.post('/test_helpers/holds/release');
  const own = await api.get<{ data: Row[] }>('/accounts?filter[type]=own');
  const bank = await api.post('/bank_accounts', {
    account: own.data[0].id,
    type: 'bookbank',
    account_holder_name: 'Somchai Jaidee',
    target: 'THB',
    extra_fields: { bankCode: '004', accountNumber: String(Date.now()).slice(-10) },
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

type Recipe = (api: WalletApi) => Promise<unknown>;

const payWith =
  (card: string): Recipe =>
  (api) =>
    pay(api, card);
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
  'test_helpers.test_clock.deleted': async (api) =>
    api.delete(`/test_helpers/test_clocks/${(await testClock(api)).id}`),
  'customer.subscription.created': subscription,
  'customer.subscription.updated': async (api) =>
    api.post(`/subscriptions/${(await subscription(api)).id}`, { metadata: { triggered_by: 'cli' } }),
  'customer.subscription.deleted': async (api) => api.post(`/subscriptions/${(await subscription(api)).id}/cancel`),
};

/** Event types the public API cannot make happen today, and why (each is a test helper to add). */
export const NOT_TRIGGERABLE: Partial<Record<EventType, string>> = {
  'test_helpers.test_clock.ready':
    'made by the subscriptions job (RUN_JOBS) once it has moved an advancing clock: events:trigger test_helpers.test_clock.advancing starts one, and the event follows where the deployment runs jobs',
  'customer.subscription.trial_will_end':
    'made by the subscriptions job (RUN_JOBS) three days before a trial ends: a trial subscription on a test clock advanced past that moment makes it where the deployment runs jobs',
  'payout.canceled':
    'only a pending payout cancels, and a payout stays pending only when the transfer provider refuses it; the sandbox has no API switch for that',
  'meter_event.delivery_failed':
    'needs the billing provider to refuse a meter event for every retry (hours of backoff); no test helper abandons one',
  'webhook_endpoint.disabled':
    'needs 3 days of failed deliveries by the service clock; no test helper disables an endpoint for failures',
};
