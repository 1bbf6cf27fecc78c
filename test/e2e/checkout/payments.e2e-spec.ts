import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import {
  CARDS,
  card,
  confirm,
  connectedAccount,
  createCheckout,
  createCustomer,
  createOpenInvoice,
  createPaymentIntent,
  paymentIntentCheckout,
  expectLedgerInvariants,
} from '../../factories/checkout.js';

const HOUR = 3600 * 1000;

/** A record of a response, as the tests read it. */
type Entry = Record<string, unknown>;

/** EMVCo QR: CRC-16/CCITT-FALSE over the payload up to and including "6304". */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** Top-level EMVCo TLV fields: id -> value. */
function tlv(payload: string): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < payload.length;) {
    const id = payload.slice(i, i + 2);
    const length = Number(payload.slice(i + 2, i + 4));
    out.set(id, payload.slice(i + 4, i + 4 + length));
    i += 4 + length;
  }
  return out;
}

describe('paying checkouts: charges, targets and the ledger', () => {
  let t: TestApp;
  let tenant: Tenant;
  const tenants: string[] = [];

  beforeAll(async () => {
    t = await startApp();
    tenant = await createTenant(t);
    tenants.push(tenant.applicationId);
  });
  afterEach(() => t.clock.reset());
  afterAll(async () => {
    await expectLedgerInvariants(t, tenants);
    await t.close();
  });

  const get = (path: string, tn = tenant) => t.http.get(tn.path(path)).set(tn.as('test'));
  /** The entries of a charge's journal (found by its description, `Charge <id>`). */
  const entriesOf = async (chargeId: string, tn = tenant) =>
    (
      (await get(`/balance_transactions?limit=100&q=${encodeURIComponent(`Charge ${chargeId}`)}`, tn)).body
        .data as Array<Entry>
    ).filter((e) => e.event_type === 'charge.succeeded' && e.event_id === chargeId);

  it('a 4242 card payment completes the checkout and the payment intent and books gross, fee and net on hold', async () => {
    const customer = await createCustomer(t, tenant);
    const pi = await createPaymentIntent(t, tenant, { customer_id: customer.id, metadata: { order: '7' } });
    const checkout = await createCheckout(t, tenant, {
      target_type: 'payment_intent',
      target_id: pi.id,
      success_url: 'https://shop.example/thanks?c={CHECKOUT_ID}',
    });
    const res = await confirm(t, tenant, checkout, card(CARDS.visa, { name: 'Somchai Jaidee' }));
    expect(res.status).toBe(200);
    expect(res.body.redirect_url).toBe(`https://shop.example/thanks?c=${checkout.id}`);
    expect(res.body.checkout).toMatchObject({ status: 'complete', payment_status: 'paid' });
    const charge = res.body.charge;
    const fee = Math.floor((125000 * 365 + 5000) / 10000);
    expect(charge).toMatchObject({
      object: 'charge',
      livemode: false,
      status: 'succeeded',
      amount: 125000,
      currency: 'THB',
      scaling_factor: 100,
      customer_id: customer.id,
      payment_intent: pi.id,
      paid: true,
      captured: true,
      amount_captured: 125000,
      provider: 'sandbox',
      provider_fee_amount: fee,
      net_amount: 125000 - fee,
      payable_amount: 125000 - fee,
      settlement_status: 'settled',
      failure_code: null,
      metadata: { order: '7' },
      customer: { id: customer.id, object: 'customer' },
      payment_method: {
        type: 'card',
        brand: 'visa',
        last4: '4242',
        card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2099 },
        card_holder_name: 'Somchai Jaidee',
      },
      balance: { account: 'merchant', currency: 'THB', hold: 125000 - fee, available: 0 },
      invoice: null,
    });
    expect(JSON.stringify(charge)).not.toContain('4242424242424242');
    expect(charge.reference_id).toMatch(/^ch_sbx_/);

    expect((await get(`/payment_intents/${pi.id}`)).body).toMatchObject({
      status: 'succeeded',
      amount_received: 125000,
      latest_charge: charge.id,
    });
    expect((await get(`/checkouts/${checkout.id}`)).body).toMatchObject({ status: 'complete', charge_id: charge.id });
    expect((await get(`/charges/${charge.id}`)).body).toMatchObject({ id: charge.id, status: 'succeeded' });

    const entries = await entriesOf(charge.id);
    const byAccount = Object.fromEntries(entries.map((e) => [e.account, e]));
    expect(Object.keys(byAccount).sort()).toEqual(['fees', 'merchant', 'provider_clearing']);
    expect(new Set(entries.map((e) => e.journal_id)).size).toBe(1);
    expect(byAccount.merchant).toMatchObject({
      amount: 125000 - fee,
      fee,
      net: 125000 - fee,
      gross_amount: 125000,
      state: 'hold',
      event_type: 'charge.succeeded',
      event_id: charge.id,
      fee_details: [{ type: 'provider_fee', amount: fee, currency: 'THB', application: null }],
    });
    expect(new Date(byAccount.merchant.available_on).getTime() - t.clock.nowMs()).toBeGreaterThan(47 * HOUR);
    expect(byAccount.fees).toMatchObject({ amount: fee, state: 'available', type: 'fee' });
    expect(byAccount.provider_clearing).toMatchObject({ amount: -125000, state: 'available' });
  });

  it('an invoice paid through its checkout becomes paid, and its charge embeds it', async () => {
    const invoice = await createOpenInvoice(t, tenant);
    expect(invoice).toMatchObject({ status: 'open', total: 95000, amount_due: 95000, amount_remaining: 95000 });
    const checkout = await createCheckout(t, tenant, { target_type: 'invoice', target_id: invoice.id });
    expect(checkout).toMatchObject({ amount: 95000, customer_id: invoice.customer_id });
    const res = await confirm(t, tenant, checkout, card(CARDS.visa));
    expect(res.body.charge).toMatchObject({
      status: 'succeeded',
      amount: 95000,
      payment_intent: null,
      invoice: { id: invoice.id, object: 'invoice', status: 'paid', amount_paid: 95000, amount_remaining: 0 },
    });
    expect((await get(`/invoices/${invoice.id}`)).body).toMatchObject({
      status: 'paid',
      paid: true,
      charge_id: res.body.charge.id,
    });
    const list = await get(`/charges?filter[invoice_id]=${invoice.id}`);
    expect(list.body).toMatchObject({ total_items: 1, data: [{ invoice: { id: invoice.id } }] });
    const voidPaid = await t.http.post(tenant.path(`/invoices/${invoice.id}/void`)).set(tenant.as('test'));
    expect(voidPaid.status).toBe(400);
    expectErrorObject(voidPaid.body, 'E7015');
  });

  it('a declined card leaves a failed charge and an open checkout that can be paid again', async () => {
    const { pi, checkout } = await paymentIntentCheckout(t, tenant);
    const declined = await confirm(t, tenant, checkout, card(CARDS.declined));
    expect(declined.status).toBe(200);
    expect(declined.body.redirect_url).toBeNull();
    expect(declined.body.checkout.status).toBe('open');
    expect(declined.body.charge).toMatchObject({
      status: 'failed',
      paid: false,
      failure_code: 'card_declined',
      failure_reason: 'generic_decline',
      failure_message: 'Your card was declined.',
      balance: null,
    });
    const poor = await confirm(t, tenant, checkout, card(CARDS.insufficient));
    expect(poor.body.charge).toMatchObject({ status: 'failed', failure_reason: 'insufficient_funds' });
    expect((await get(`/payment_intents/${pi.id}`)).body).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { code: 'card_declined', charge: poor.body.charge.id },
    });
    expect(await entriesOf(declined.body.charge.id)).toEqual([]);
    const paid = await confirm(t, tenant, checkout, card(CARDS.visa));
    expect(paid.body.charge.status).toBe('succeeded');
    const failed = await get(`/charges?filter[payment_intent]=${pi.id}&filter[status]=failed`);
    expect(failed.body.total_items).toBe(2);
  });

  it('PromptPay: a pending charge with a real EMVCo payload and PNG, paid through the test helper', async () => {
    const { pi, checkout } = await paymentIntentCheckout(t, tenant, { amount: 45075 });
    const res = await confirm(t, tenant, checkout, { payment_method_type: 'promptpay' });
    expect(res.status).toBe(200);
    const charge = res.body.charge;
    expect(charge).toMatchObject({
      status: 'pending',
      paid: false,
      settlement_status: 'pending',
      payment_method: { type: 'promptpay' },
      next_action: [{ type: 'promptpay_display_qr', qr_data: charge.promptpay.raw }],
    });
    const raw: string = charge.promptpay.raw;
    const fields = tlv(raw);
    expect(fields.get('00')).toBe('01');
    expect(fields.get('29')).toContain('A000000677010111');
    expect(fields.get('53')).toBe('764');
    expect(fields.get('54')).toBe('450.75');
    expect(fields.get('58')).toBe('TH');
    expect(fields.get('63')).toBe(crc16(raw.slice(0, -4)));
    expect(charge.promptpay.image).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(charge.promptpay.image.split(',')[1], 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(new Date(charge.promptpay.expires_at).getTime() - t.clock.nowMs()).toBeLessThanOrEqual(15 * 60 * 1000);
    expect((await get(`/payment_intents/${pi.id}`)).body.status).toBe('processing');

    const paid = await t.http
      .post(tenant.path(`/test_helpers/checkouts/${checkout.id}/pay_promptpay`))
      .set(tenant.as('test'));
    expect(paid.status).toBe(200);
    expect(paid.body.charge).toMatchObject({ id: charge.id, status: 'succeeded', next_action: [], expires_at: null });
    expect(paid.body.checkout.status).toBe('complete');
    const fee = Math.floor((45075 * 165 + 5000) / 10000);
    const merchant = (await entriesOf(charge.id)).find((e) => e.account === 'merchant');
    expect(merchant).toMatchObject({ amount: 45075 - fee, fee, gross_amount: 45075, state: 'hold' });
    const again = await t.http
      .post(tenant.path(`/test_helpers/checkouts/${checkout.id}/pay_promptpay`))
      .set(tenant.as('test'));
    expect(again.status).toBe(400);
    expectErrorObject(again.body, 'E7006');
  });

  it('PromptPay: a new QR cancels the previous one; an expired QR cannot be paid; live mode has no helper', async () => {
    const { checkout } = await paymentIntentCheckout(t, tenant);
    const noQr = await t.http
      .post(tenant.path(`/test_helpers/checkouts/${checkout.id}/pay_promptpay`))
      .set(tenant.as('test'));
    expect(noQr.status).toBe(400);
    expectErrorObject(noQr.body, 'E7018');
    const first = (await confirm(t, tenant, checkout, { payment_method_type: 'promptpay' })).body.charge;
    const second = (await confirm(t, tenant, checkout, { payment_method_type: 'promptpay' })).body.charge;
    expect((await get(`/charges/${first.id}`)).body).toMatchObject({ status: 'canceled', canceled: true });
    t.clock.advance(16 * 60 * 1000);
    const late = await t.http
      .post(tenant.path(`/test_helpers/checkouts/${checkout.id}/pay_promptpay`))
      .set(tenant.as('test'));
    expect(late.status).toBe(400);
    expectErrorObject(late.body, 'E7018');
    expect((await get(`/charges/${second.id}`)).body).toMatchObject({ status: 'pending' });
    const live = await t.http
      .post(tenant.path(`/test_helpers/checkouts/${checkout.id}/pay_promptpay`))
      .set(tenant.as('live'));
    expect(live.status).toBe(404);
    expectErrorObject(live.body, 'E4040');
    const card_ = await confirm(t, tenant, checkout, card(CARDS.visa));
    expect(card_.body.charge.status).toBe('succeeded');
  });

  it('refuses PromptPay outside THB and a fee that leaves nothing', async () => {
    const usd = await t.http
      .post(tenant.path('/payment_intents'))
      .set(tenant.as('test'))
      .send({ amount: 1000, currency: 'USD', payment_method_types: ['promptpay'] });
    expect(usd.status).toBe(400);
    expectErrorObject(usd.body, 'E7017');
    const tiny = await t.http
      .post(tenant.path('/payment_intents'))
      .set(tenant.as('test'))
      .send({ amount: 1, currency: 'THB' });
    expect(tiny.status).toBe(400);
    expectErrorObject(tiny.body, 'E7019');
    const feeWithoutDestination = await t.http
      .post(tenant.path('/payment_intents'))
      .set(tenant.as('test'))
      .send({ amount: 10000, currency: 'THB', application_fee_amount: 100 });
    expect(feeWithoutDestination.status).toBe(400);
    expectErrorObject(feeWithoutDestination.body, 'E7011');
    const badLines = await t.http
      .post(tenant.path('/invoices'))
      .set(tenant.as('test'))
      .send({
        customer_id: (await createCustomer(t, tenant)).id,
        currency: 'THB',
        line_items: [
          { description: 'x', amount: 100 },
          { description: 'refund', amount: -200 },
        ],
      });
    expect(badLines.status).toBe(400);
    expectErrorObject(badLines.body, 'E7019');
  });

  it('refuses customers that are unknown (E7014) or not KYC-verified (E1303)', async () => {
    const unknown = await t.http
      .post(tenant.path('/payment_intents'))
      .set(tenant.as('test'))
      .send({ amount: 1000, currency: 'THB', customer_id: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' });
    expect(unknown.status).toBe(404);
    expectErrorObject(unknown.body, 'E7014');
    const pending = await createCustomer(t, tenant, 'test', { kyc_status: 'pending' });
    const kyc = await t.http
      .post(tenant.path('/invoices'))
      .set(tenant.as('test'))
      .send({ customer_id: pending.id, currency: 'THB', line_items: [{ description: 'x', amount: 1000 }] });
    expect(kyc.status).toBe(403);
    expectErrorObject(kyc.body, 'E1303');
  });

  it('card 4000 0000 0000 0259 succeeds and is then disputed: the dispute withdraws from the merchant balance', async () => {
    const { checkout } = await paymentIntentCheckout(t, tenant, { amount: 30000 });
    const res = await confirm(t, tenant, checkout, card(CARDS.disputed));
    expect(res.body.charge.status).toBe('succeeded');
    const charge = (await get(`/charges/${res.body.charge.id}`)).body;
    expect(charge).toMatchObject({ disputed: true, dispute_status: 'needs_response', dispute_reason: 'fraudulent' });
    const disputes = await get(`/disputes?filter[charge_id]=${charge.id}`);
    expect(disputes.body).toMatchObject({ total_items: 1, data: [{ amount: 30000, charge_id: charge.id }] });
    const withdrawal = (
      await get(`/balance_transactions?filter[balance_id]=${charge.balance.id}&limit=100`)
    ).body.data.find((e: Entry) => e.event_type === 'dispute.opened' && e.event_id === charge.dispute_id);
    expect(withdrawal).toMatchObject({ amount: -30000, state: 'available', account: 'merchant' });
  });

  it('a destination charge pays the connected account and the application fee to the application', async () => {
    const seller = await connectedAccount(t, tenant);
    const pi = await createPaymentIntent(t, tenant, {
      amount: 100000,
      transfer_data: { destination: seller.id },
      application_fee_amount: 5000,
    });
    expect(pi).toMatchObject({ transfer_data: { destination: seller.id }, application_fee_amount: 5000 });
    const checkout = await createCheckout(t, tenant, { target_type: 'payment_intent', target_id: pi.id });
    expect(checkout).toMatchObject({ transfer_data: { destination: seller.id }, application_fee_amount: 5000 });
    const charge = (await confirm(t, tenant, checkout, card(CARDS.visa))).body.charge;
    const fee = Math.floor((100000 * 365 + 5000) / 10000);
    const connectedName = `connected_${seller.id.replaceAll('-', '')}`;
    expect(charge).toMatchObject({
      application_fee_amount: 5000,
      provider_fee_amount: fee,
      payable_amount: 100000 - 5000 - fee,
      application: tenant.applicationId,
      on_behalf_of: seller.id,
      transfer_data: { destination: seller.id, amount: 100000 - 5000 - fee },
      balance: { account: connectedName, hold: 100000 - 5000 - fee },
    });
    expect(charge.transfer_data.balance_id).toBe(charge.balance.id);
    const entries = await entriesOf(charge.id);
    const byAccount = Object.fromEntries(entries.map((e) => [e.account, e]));
    expect(byAccount[connectedName]).toMatchObject({
      amount: 100000 - 5000 - fee,
      fee: fee + 5000,
      gross_amount: 100000,
      state: 'hold',
      fee_details: [
        { type: 'provider_fee', amount: fee, currency: 'THB' },
        { type: 'application_fee', amount: 5000, currency: 'THB', application: tenant.applicationId },
      ],
    });
    expect(byAccount.merchant).toMatchObject({ amount: 5000, state: 'hold', type: 'application_fee' });
    expect(byAccount.merchant.id).toBe(charge.application_fee);
    expect(byAccount.fees.amount).toBe(fee);
  });

  it('refuses destinations that are unknown (E7012), the own account (E7013) or not KYB-verified (E1304)', async () => {
    const send = (destination: string) =>
      t.http
        .post(tenant.path('/payment_intents'))
        .set(tenant.as('test'))
        .send({ amount: 10000, currency: 'THB', transfer_data: { destination } });
    const unknown = await send('0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b');
    expect(unknown.status).toBe(404);
    expectErrorObject(unknown.body, 'E7012');
    const own = (await get('/accounts?filter[type]=own')).body.data[0];
    const ownRes = await send(own.id);
    expect(ownRes.status).toBe(400);
    expectErrorObject(ownRes.body, 'E7013');
    const unverified = await connectedAccount(t, tenant, false);
    const kyb = await send(unverified.id);
    expect(kyb.status).toBe(403);
    expectErrorObject(kyb.body, 'E1304');
    const other = await createTenant(t);
    tenants.push(other.applicationId);
    const foreign = await connectedAccount(t, other);
    const foreignRes = await send(foreign.id);
    expect(foreignRes.status).toBe(404);
    expectErrorObject(foreignRes.body, 'E7012');
  });

  it('releases held funds through the test helper (this application only, 404 in live mode)', async () => {
    const own = await createTenant(t);
    const bystander = await createTenant(t);
    tenants.push(own.applicationId, bystander.applicationId);
    for (const tn of [own, bystander]) {
      const pi = await createPaymentIntent(t, tn, { amount: 20000 });
      const checkout = await createCheckout(t, tn, { target_type: 'payment_intent', target_id: pi.id });
      expect((await confirm(t, tn, checkout, card(CARDS.visa))).body.charge.status).toBe('succeeded');
    }
    const live = await t.http.post(own.path('/test_helpers/holds/release')).set(own.as('live'));
    expect(live.status).toBe(404);
    expectErrorObject(live.body, 'E4040');
    const released = await t.http.post(own.path('/test_helpers/holds/release')).set(own.as('test'));
    expect(released.status).toBe(200);
    expect(released.body).toMatchObject({ object: 'hold_release', released: 1 });
    const fee = Math.floor((20000 * 365 + 5000) / 10000);
    const merchant = (tn: Tenant) => get('/balances?filter[account]=merchant', tn).then((r) => r.body.data[0]);
    expect(await merchant(own)).toMatchObject({ available: 20000 - fee, hold: 0 });
    expect(await merchant(bystander)).toMatchObject({ available: 0, hold: 20000 - fee });
    const releases = await get('/balance_transactions?filter[state]=available&limit=100', own);
    expect(releases.body.data.some((e: Entry) => e.event_type === 'hold_release')).toBe(true);
  });

  it('lists charges with filters, and payment intents, invoices and checkouts with the list engine', async () => {
    const charges = await get('/charges?filter[status]=succeeded&sort=amount:desc&limit=2');
    expect(charges.status).toBe(200);
    expect(charges.body).toMatchObject({ object: 'list', page: 1, limit: 2 });
    expect(charges.body.data.every((c: Entry) => c.status === 'succeeded')).toBe(true);
    expect(charges.body.data[0].amount).toBeGreaterThanOrEqual(charges.body.data[1].amount);
    const cursor = await get('/charges?use-cursor=true&limit=1');
    expect(cursor.body).toMatchObject({ has_more: true, data: [expect.any(Object)] });
    const bad = await get('/charges?filter[status]=lost');
    expect(bad.status).toBe(400);
    expectErrorObject(bad.body, 'E2004');
    for (const path of ['/payment_intents', '/invoices', '/checkouts', '/payment_links']) {
      const res = await get(`${path}?limit=1`);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
    const unknown = await get('/charges/not-a-uuid');
    expect(unknown.status).toBe(404);
    expectErrorObject(unknown.body, 'E4004');
  });

  it('payment links: each visit opens a fresh checkout on the target; a paid target is refused', async () => {
    const pi = await createPaymentIntent(t, tenant);
    const created = await t.http
      .post(tenant.path('/payment_links'))
      .set(tenant.as('test'))
      .send({ target_type: 'payment_intent', target_id: pi.id, success_url: 'https://shop.example/ok' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ object: 'payment_link', active: true, livemode: false, target_id: pi.id });
    const link = new URL(created.body.url);
    expect(link.pathname).toBe(`/pay/${tenant.slug}/links/${created.body.id}`);

    const visit = async () => {
      const page = await t.http.get(link.pathname);
      expect(page.status).toBe(200);
      expect(page.headers['cache-control']).toBe('no-store');
      const target = /location\.replace\("([^"]+)"\)/.exec(page.text)![1];
      const [path, fragment] = target.split('#');
      return { id: path.split('/').pop()!, session: new URLSearchParams(fragment).get('session')! };
    };
    const first = await visit();
    const second = await visit();
    expect(first.id).not.toBe(second.id);
    const checkout = (await get(`/checkouts/${first.id}`)).body;
    expect(checkout).toMatchObject({ payment_link_id: created.body.id, success_url: 'https://shop.example/ok' });
    const paid = await confirm(t, tenant, first, card(CARDS.visa));
    expect(paid.body.redirect_url).toBe('https://shop.example/ok');
    const stale = await confirm(t, tenant, second, card(CARDS.visa));
    expect(stale.status).toBe(400);
    expectErrorObject(stale.body, 'E7002');
    const afterPaid = await t.http.get(link.pathname);
    expect(afterPaid.status).toBe(400);
    expect(afterPaid.text).toContain('already succeeded');

    const listed = await get(`/payment_links?filter[target_id]=${pi.id}`);
    expect(listed.body).toMatchObject({ total_items: 1, data: [{ id: created.body.id }] });
    const deactivated = await t.http
      .post(tenant.path(`/payment_links/${created.body.id}/deactivate`))
      .set(tenant.as('test'));
    expect(deactivated.body.active).toBe(false);
    const gone = await t.http.get(`/pay/${tenant.slug}/links/0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b`);
    expect(gone.status).toBe(404);
    const refused = await t.http
      .post(tenant.path('/payment_links'))
      .set(tenant.as('test'))
      .send({ target_type: 'payment_intent', target_id: pi.id });
    expect(refused.status).toBe(400);
    expectErrorObject(refused.body, 'E7002');
  });

  it('serves the hosted checkout page with the amount, the merchant and a strict CSP, and 404 for unknown ones', async () => {
    const { pi, checkout } = await paymentIntentCheckout(t, tenant, { amount: 123450, description: 'Order <b>42</b>' });
    const page = await t.http.get(new URL(checkout.url).pathname);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'nonce-/);
    expect(page.text).toContain('฿1,234.50');
    expect(page.text).toContain('Order &lt;b&gt;42&lt;/b&gt;');
    expect(page.text).toContain('<label for="card-number">Card number</label>');
    expect(page.text).toContain('Pay with PromptPay');
    expect(page.text).not.toContain(checkout.session);
    expect((await t.http.get(`/pay/${tenant.slug}/checkouts/${pi.id}`)).status).toBe(404);
    expect((await t.http.get(`/pay/no-such-app/checkouts/${checkout.id}`)).status).toBe(404);
  });
});
