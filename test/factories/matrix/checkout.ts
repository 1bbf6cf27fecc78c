import type { Mode } from '../../../src/common/context/principal.js';
import type { Tenant, TestApp } from '../../support/harness.js';
import { issueSession } from '../auth.js';
import { CARDS, card, confirm, createCheckout, createOpenInvoice, createPaymentIntent, tokenize } from '../checkout.js';
import { MODES } from '../../../src/common/tenancy/modes.js';

export type CollectionIds = Record<`${'intent' | 'invoice' | 'checkout' | 'charge' | 'link'}_${Mode}`, string>;

const made = new WeakMap<Tenant, Promise<CollectionIds>>();

/** A payment intent, an open invoice, an open checkout, a paid charge and a payment link in each mode of `tenant`. */
export function collectionRecords(t: TestApp, tenant: Tenant): Promise<CollectionIds> {
  if (!made.has(tenant)) made.set(tenant, make(t, tenant));
  return made.get(tenant)!;
}

async function make(t: TestApp, tenant: Tenant): Promise<CollectionIds> {
  const out = {} as CollectionIds;
  for (const mode of MODES) {
    const intent = await createPaymentIntent(t, tenant, {}, mode);
    const invoice = await createOpenInvoice(t, tenant, {}, mode);
    const checkout = await createCheckout(t, tenant, { target_type: 'payment_intent', target_id: intent.id }, mode);
    const paid = await createCheckout(t, tenant, { target_type: 'invoice', target_id: invoice.id }, mode);
    const paying = await confirm(t, tenant, paid, card(CARDS.visa));
    const link = await t.http
      .post(tenant.path('/payment_links'))
      .set(tenant.as(mode))
      .send({ target_type: 'payment_intent', target_id: intent.id });
    out[`intent_${mode}`] = intent.id;
    out[`invoice_${mode}`] = invoice.id;
    out[`checkout_${mode}`] = checkout.id;
    out[`charge_${mode}`] = paying.body.charge.id;
    out[`link_${mode}`] = link.body.id;
  }
  return out;
}

/**
 * For the session-only checkout endpoints: a fresh test checkout (ids.checkout) with its own
 * session, another checkout's session, and a 60-second session on the same checkout that the
 * matrix's clock move expires.
 */
export async function checkoutSessions(t: TestApp, tenant: Tenant) {
  const target = async () => (await createPaymentIntent(t, tenant)).id;
  const checkout = await createCheckout(t, tenant, { target_type: 'payment_intent', target_id: await target() });
  const other = await createCheckout(t, tenant, { target_type: 'payment_intent', target_id: await target() });
  const expired = await issueSession(t, tenant, { purpose: 'checkout', targetId: checkout.id, ttlSeconds: 60 });
  return {
    ids: { checkout: checkout.id },
    sessions: { right: checkout.session, otherTarget: other.session, expired: expired.token },
  };
}

/** checkoutSessions, and a vault token of the right checkout (a declined card, so the session stays usable). */
export async function checkoutSessionsWithToken(t: TestApp, tenant: Tenant) {
  const row = await checkoutSessions(t, tenant);
  const token = await tokenize(t, tenant, { session: row.sessions.right }, card(CARDS.declined).card);
  expect(token.status).toBe(200);
  return { ...row, ids: { ...row.ids, token: token.body.id as string } };
}
