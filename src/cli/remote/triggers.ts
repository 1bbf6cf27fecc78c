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
};

/** Event types the public API cannot make happen today, and why (each is a test helper to add). */
export const NOT_TRIGGERABLE: Partial<Record<EventType, string>> = {
  'payout.canceled':
    'only a pending payout cancels, and a payout stays pending only when the transfer provider refuses it; the sandbox has no API switch for that',
  'meter_event.delivery_failed':
    'needs the billing provider to refuse a meter event for every retry (hours of backoff); no test helper abandons one',
  'webhook_endpoint.disabled':
    'needs 3 days of failed deliveries by the service clock; no test helper disables an endpoint for failures',
};
