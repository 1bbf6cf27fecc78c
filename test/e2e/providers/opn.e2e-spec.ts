/**
 * Contract tests of the Opn Payments (Omise) adapter against a local HTTP server that answers with
 * Opn's published shapes (test/fixtures/opn/, each with its `_source`). The real adapter code runs:
 * only the base URL points at the local server. The same scenarios against Opn's own test
 * environment: test/e2e/providers/opn.live.e2e-spec.ts (docs/PROVIDERS.md, "Opn Payments").
 */
import { fakeOpn, opnFixture, type FakeProvider } from '../../support/fake-provider.js';
import {
  OpnClient,
  OpnCollectionError,
  OpnCollectionProvider,
  OpnTransferError,
  OpnTransferProvider,
  OpnWebhookRejected,
  OpnWebhooks,
  OPN_BANK_ACCOUNT,
  opnClientOptions,
  type OpnPayment,
} from '../../../src/providers/opn/index.js';
import { unmappedThaiBanks } from '../../../src/providers/opn/opn-banks.js';
import { THAI_BANKS } from '../../../src/providers/ports/thai-banks.js';

const CHARGE_ID = '01936f6a-0000-7000-8000-000000000001';
const TOKEN = 'tokn_test_5fzq3x4kfe6mhbl0vq1';
const request = (over: Partial<{ amount: number; chargeId: string }> = {}) => ({
  applicationId: '01936f6a-0000-7000-8000-0000000000aa',
  chargeId: over.chargeId ?? CHARGE_ID,
  amount: over.amount ?? 100000,
  currency: 'THB',
  scalingFactor: 100,
  livemode: false,
});

/** What the webhook route hands Opn's webhook port: the raw body, verified with the test-mode key. */
const verifyWith = (webhooks: OpnWebhooks, body: string | Buffer | object) =>
  webhooks.verify(
    Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
    {},
    'test',
  );

describe('Opn Payments adapter (contract, local server)', () => {
  let opn: FakeProvider;
  let client: OpnClient;
  let collection: OpnCollectionProvider;
  let transfers: OpnTransferProvider;
  let webhooks: OpnWebhooks;
  let verify: (body: string | Buffer | object) => ReturnType<OpnWebhooks['verify']>;

  beforeAll(async () => {
    opn = await fakeOpn().start();
    client = new OpnClient({
      secretKey: opn.secretKey,
      apiBase: opn.baseUrl,
      omiseVersion: '2019-05-29',
      timeoutMs: 2_000,
    });
    collection = new OpnCollectionProvider(client, {
      returnUri: (id) => `https://wallet.example/checkout/charges/${id}/return`,
    });
    transfers = new OpnTransferProvider(client);
    webhooks = new OpnWebhooks({ test: client });
    verify = (body) => verifyWith(webhooks, body);
  });
  afterAll(() => opn.stop());
  beforeEach(() => opn.reset());

  describe('cards (Omise.js tokens)', () => {
    it('charges a token: succeeded, with Basic auth, Omise-Version and the idempotency key', async () => {
      opn.on('POST /charges', { status: 200, fixture: 'charge_successful' });
      const payment = await collection.chargeCard(request(), TOKEN);
      expect(payment).toEqual({ status: 'succeeded', reference: 'chrg_test_4z429hvnv7ouolu6kmp' });
      const sent = opn.last('POST /charges');
      expect(sent.headers.authorization).toBe(`Basic ${Buffer.from(`${opn.secretKey}:`).toString('base64')}`);
      expect(sent.headers['omise-version']).toBe('2019-05-29');
      expect(sent.headers['idempotency-key']).toBe(`charge:${CHARGE_ID}`);
      expect(sent.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(sent.form).toMatchObject({
        amount: '100000',
        currency: 'thb',
        card: TOKEN,
        return_uri: `https://wallet.example/checkout/charges/${CHARGE_ID}/return`,
        'metadata[charge_id]': CHARGE_ID,
      });
    });

    it('a declined charge is a failed payment in the port shape (insufficient_fund → card_declined/insufficient_funds)', async () => {
      opn.on('POST /charges', { status: 200, fixture: 'charge_declined' });
      const payment = await collection.chargeCard(request(), TOKEN);
      expect(payment).toMatchObject({
        status: 'failed',
        reference: 'chrg_test_5fzdeclined0000000001',
        failure: { code: 'card_declined', reason: 'insufficient_funds' },
      });
    });

    it('an invalid_card API error is a failed payment, not an exception', async () => {
      opn.on('POST /charges', { status: 400, fixture: 'error_invalid_card' });
      const payment = await collection.chargeCard(request(), TOKEN);
      expect(payment).toMatchObject({ status: 'failed', failure: { code: 'card_declined', reason: 'invalid_card' } });
    });

    it('3-D Secure: pending with authorize_uri, then the charge read after the return is succeeded', async () => {
      opn.on('POST /charges', { status: 200, fixture: 'charge_3ds_pending' });
      const payment: OpnPayment = await collection.chargeCard(request(), TOKEN);
      expect(payment).toEqual({
        status: 'pending',
        reference: 'chrg_test_5f3dsecure000000000001',
        authorizeUri: 'https://api.omise.co/payments/paym_4z429hvmrk381n4q8xc/authorize',
      });
      opn.on('GET /charges/chrg_test_5f3dsecure000000000001', {
        status: 200,
        fixture: 'charge_successful',
        patch: { id: 'chrg_test_5f3dsecure000000000001' },
      });
      expect(await collection.confirmPromptPay(payment.reference)).toEqual({
        status: 'succeeded',
        reference: 'chrg_test_5f3dsecure000000000001',
      });
    });

    it('refuses card details: no PAN is ever sent to Opn from the service', async () => {
      const card = { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' };
      await expect(collection.chargeCard(request(), card)).rejects.toMatchObject({ opnCode: 'token_required' });
      expect(() => collection.describeCard(card, 'app')).toThrow(OpnCollectionError);
      expect(opn.requests).toHaveLength(0);
    });
  });

  describe('PromptPay', () => {
    it('pending with Opn’s QR image, then paid: charge.complete re-fetched from Opn, and the charge read agrees', async () => {
      const pending = opnFixture<{ id: string; source: { scannable_code: { image: { download_uri: string } } } }>(
        'charge_promptpay_pending',
      );
      opn.on('POST /charges', { status: 200, fixture: 'charge_promptpay_pending' });
      const expiresAt = new Date('2020-07-18T23:48:15Z');
      const payment = await collection.createPromptPay(request({ amount: 500000 }), expiresAt);
      expect(payment).toMatchObject({
        status: 'pending',
        reference: pending.id,
        promptpay: {
          image: pending.source.scannable_code.image.download_uri,
          ref1: pending.id,
          expires_at: '2020-07-18T23:48:15Z',
        },
      });
      expect(opn.last('POST /charges').form).toMatchObject({
        'source[type]': 'promptpay',
        amount: '500000',
        expires_at: expiresAt.toISOString(),
      });

      // Opn posts charge.complete; the body is believed only after GET /events/{id}.
      opn.on('GET /events/evnt_test_52lfalk2p3ssnhwfoez', { status: 200, fixture: 'event_charge_complete' });
      const body = JSON.stringify({ object: 'event', id: 'evnt_test_52lfalk2p3ssnhwfoez', key: 'charge.complete' });
      expect(await verify(body)).toEqual({
        provider_event_id: 'evnt_test_52lfalk2p3ssnhwfoez',
        kind: 'charge.complete',
        reference: pending.id,
        status: 'succeeded',
        livemode: false,
      });
      expect(opn.last('GET /events/evnt_test_52lfalk2p3ssnhwfoez')).toBeTruthy();

      opn.on(`GET /charges/${pending.id}`, { status: 200, fixture: 'charge_promptpay_paid' });
      expect(await collection.confirmPromptPay(pending.id)).toEqual({ status: 'succeeded', reference: pending.id });
    });
  });

  describe('refunds', () => {
    it('a partial refund: POST /charges/{id}/refunds with the amount, keyed by the refund id; its status read back', async () => {
      const charge = 'chrg_test_4z429hvnv7ouolu6kmp';
      opn.on(`POST /charges/${charge}/refunds`, { status: 200, fixture: 'refund_partial' });
      const refund = await collection.refund({
        applicationId: 'app',
        refundId: 'refund-1',
        chargeReference: charge,
        method: 'card',
        amount: 40000,
        currency: 'THB',
        scalingFactor: 100,
        livemode: false,
      });
      expect(refund).toEqual({ status: 'succeeded', reference: `${charge}/rfnd_test_4z5xxgntg3pzhhynae4` });
      const sent = opn.last(`POST /charges/${charge}/refunds`);
      expect(sent.form).toMatchObject({ amount: '40000', 'metadata[refund_id]': 'refund-1' });
      expect(sent.headers['idempotency-key']).toBe('refund:refund-1');

      opn.on(`GET /charges/${charge}/refunds/rfnd_test_4z5xxgntg3pzhhynae4`, {
        status: 200,
        fixture: 'refund_partial',
        patch: { status: 'pending' },
      });
      expect(await collection.refundStatus(refund.reference)).toEqual({
        status: 'pending',
        reference: refund.reference,
      });
    });
  });

  describe('transfers', () => {
    const recipientRequest = {
      applicationId: 'app',
      bankAccountId: 'bank-account-1',
      country: 'TH',
      providerType: OPN_BANK_ACCOUNT,
      currency: 'THB',
      accountHolderName: 'Somchai Jaidee',
      bankCode: '004',
      accountNumber: '1234567890',
      passthrough: {},
    };

    it('maps every Thai bank the service accepts to an Opn brand', () => {
      expect(unmappedThaiBanks()).toEqual([]);
      expect(THAI_BANKS.length).toBeGreaterThan(20);
      expect(transfers.providerType('TH', 'bookbank')).toBe(OPN_BANK_ACCOUNT);
      expect(transfers.providerType('TH', 'promptpay_phone')).toBeNull();
    });

    it('success: recipient with the bank brand, transfer created pending, then paid; cancel answers canceled', async () => {
      opn.on('POST /recipients', { status: 200, fixture: 'recipient' });
      const recipient = await transfers.createRecipient(recipientRequest);
      expect(recipient.reference).toBe('recp_test_5086be32wsp9iy2exem');
      expect(opn.last('POST /recipients').form).toMatchObject({
        name: 'Somchai Jaidee',
        type: 'individual',
        'bank_account[brand]': 'kbank',
        'bank_account[number]': '1234567890',
        'bank_account[name]': 'Somchai Jaidee',
      });

      opn.on('POST /transfers', { status: 200, fixture: 'transfer_created' });
      const transfer = await transfers.createTransfer({
        applicationId: 'app',
        payoutId: 'payout-1',
        recipientReference: recipient.reference,
        amount: 4000,
        currency: 'THB',
        scalingFactor: 100,
        livemode: false,
      });
      expect(transfer).toEqual({ status: 'pending', reference: 'trsf_test_4z4cw3ku87retguciji' });
      const sent = opn.last('POST /transfers');
      expect(sent.form).toMatchObject({ amount: '4000', recipient: 'recp_test_5086be32wsp9iy2exem' });
      expect(sent.headers['idempotency-key']).toBe('transfer:payout-1');

      opn.on('GET /transfers/trsf_test_4z4cw3ku87retguciji', { status: 200, fixture: 'transfer_paid' });
      expect(await transfers.transferStatus(transfer.reference)).toEqual({
        status: 'paid',
        reference: transfer.reference,
      });

      opn.on('DELETE /transfers/trsf_test_4z4cw3ku87retguciji', { status: 200, fixture: 'transfer_destroyed' });
      expect(await transfers.cancelTransfer(transfer.reference)).toEqual({
        status: 'canceled',
        reference: transfer.reference,
      });
    });

    it('failure: a bank refusal reads as failed; a balance refusal throws a non-retryable TransferProviderError', async () => {
      opn.on('GET /transfers/trsf_test_4z4cwfailed000000001', { status: 200, fixture: 'transfer_failed' });
      expect(await transfers.transferStatus('trsf_test_4z4cwfailed000000001')).toEqual({
        status: 'failed',
        reference: 'trsf_test_4z4cwfailed000000001',
        failure: { code: 'invalid_account_number', message: 'invalid account number' },
      });

      opn.on('POST /transfers', { status: 400, fixture: 'error_insufficient_fund' });
      const err = await transfers
        .createTransfer({
          applicationId: 'app',
          payoutId: 'payout-2',
          recipientReference: 'recp_test_5086be32wsp9iy2exem',
          amount: 10_000_000,
          currency: 'THB',
          scalingFactor: 100,
          livemode: false,
        })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpnTransferError);
      expect(err).toMatchObject({ opnCode: 'insufficient_funds', retryable: false, outcomeUnknown: false });
    });

    it('a bank Opn does not list is refused before any call', async () => {
      await expect(transfers.createRecipient({ ...recipientRequest, bankCode: '999' })).rejects.toMatchObject({
        opnCode: 'unsupported_destination',
      });
      expect(opn.requests).toHaveLength(0);
    });
  });

  describe('provider failures', () => {
    it('HTTP 500 (an HTML page) is a retryable CollectionProviderError whose outcome is unknown', async () => {
      opn.on('POST /charges', { status: 500, text: '<html><body>Internal Server Error</body></html>' });
      const err = await collection.chargeCard(request(), TOKEN).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpnCollectionError);
      expect(err).toMatchObject({ opnCode: 'http_500', retryable: true, outcomeUnknown: true });
    });

    it('service_not_found is retryable; authentication_failure is not, and never echoes the key', async () => {
      opn.on('GET /charges/chrg_test_x', { status: 404, fixture: 'error_service_not_found' });
      await expect(collection.confirmPromptPay('chrg_test_x')).rejects.toMatchObject({
        opnCode: 'service_not_found',
        retryable: true,
      });
      const wrongKey = new OpnCollectionProvider(
        new OpnClient({ secretKey: 'skey_test_wrongkey000000000', apiBase: opn.baseUrl }),
        { returnUri: () => 'https://wallet.example/r' },
      );
      const err = (await wrongKey.confirmPromptPay('chrg_test_x').catch((e: unknown) => e)) as OpnCollectionError;
      expect(err).toMatchObject({ opnCode: 'authentication_failure', retryable: false });
      expect(err.message).not.toContain('skey_');
    });

    it('a timeout (no answer) is a retryable error whose outcome is unknown, for cards and transfers', async () => {
      const impatient = new OpnClient({ secretKey: opn.secretKey, apiBase: opn.baseUrl, timeoutMs: 300 });
      opn.on('POST /charges', { hang: true });
      const started = Date.now();
      const err = await new OpnCollectionProvider(impatient, { returnUri: () => 'https://wallet.example/r' })
        .chargeCard(request(), TOKEN)
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ opnCode: 'timeout', retryable: true, outcomeUnknown: true });
      expect(Date.now() - started).toBeLessThan(5_000);

      opn.on('GET /transfers/trsf_test_slow', { hang: true });
      await expect(new OpnTransferProvider(impatient).transferStatus('trsf_test_slow')).rejects.toMatchObject({
        opnCode: 'timeout',
      });
    });
  });

  describe("a lost answer, read back by the service's charge id", () => {
    it('the charge call got no answer after Opn made the charge: the charge list around the attempt finds it by metadata.charge_id', async () => {
      const impatient = new OpnClient({ secretKey: opn.secretKey, apiBase: opn.baseUrl, timeoutMs: 300 });
      const lossy = new OpnCollectionProvider(impatient, { returnUri: () => 'https://wallet.example/r' });
      opn.on('POST /charges', { hang: true });
      const recordedAt = new Date();
      await expect(lossy.chargeCard(request(), TOKEN)).rejects.toMatchObject({ outcomeUnknown: true });

      const made = { ...opnFixture('charge_successful'), metadata: { charge_id: CHARGE_ID } };
      const other = { ...opnFixture('charge_declined'), id: 'chrg_test_other', metadata: { charge_id: 'another' } };
      opn.on('GET /charges', {
        status: 200,
        json: { object: 'list', data: [other, made], total: 2, limit: 100, offset: 0 },
      });
      expect(await lossy.paymentByChargeId(CHARGE_ID, recordedAt)).toEqual({
        status: 'succeeded',
        reference: 'chrg_test_4z429hvnv7ouolu6kmp',
      });
      const asked = opn.last('GET /charges');
      expect(asked.query).toMatchObject({ order: 'chronological', limit: '100', offset: '0' });
      expect(new Date(asked.query.from).getTime()).toBeLessThan(recordedAt.getTime());
      expect(new Date(asked.query.to).getTime()).toBeGreaterThan(recordedAt.getTime());
    });

    it('Opn made no charge for the id: null; Opn unreachable: a CollectionProviderError (asked again later)', async () => {
      opn.on('GET /charges', { status: 200, json: { object: 'list', data: [], total: 0, limit: 100, offset: 0 } });
      expect(await collection.paymentByChargeId(CHARGE_ID, new Date())).toBeNull();
      opn.on('GET /charges', { status: 500, text: '<html>down</html>' });
      await expect(collection.paymentByChargeId(CHARGE_ID, new Date())).rejects.toBeInstanceOf(OpnCollectionError);
    });
  });

  describe('webhooks', () => {
    it('a forged event (an id Opn does not know) is rejected; a body that is not an event is rejected', async () => {
      const forged = JSON.stringify({
        object: 'event',
        id: 'evnt_test_forged0000000000001',
        key: 'charge.complete',
        data: { object: 'charge', id: 'chrg_test_4z429hvnv7ouolu6kmp', status: 'successful' },
      });
      await expect(verify(forged)).rejects.toBeInstanceOf(OpnWebhookRejected);
      expect(opn.last('GET /events/evnt_test_forged0000000000001')).toBeTruthy();
      await expect(verify('{"object":"charge","id":"chrg_x"}')).rejects.toBeInstanceOf(OpnWebhookRejected);
      await expect(verify('not json')).rejects.toBeInstanceOf(OpnWebhookRejected);
      await expect(verify({ object: 'event', id: '../charges/x' })).rejects.toBeInstanceOf(OpnWebhookRejected);
    });

    it('the body is not believed: only the event Opn returns counts', async () => {
      opn.on('GET /events/evnt_test_52lfalk2p3transfer01', { status: 200, fixture: 'event_transfer_update' });
      const lying = {
        object: 'event',
        id: 'evnt_test_52lfalk2p3transfer01',
        key: 'charge.complete',
        data: { paid: true },
      };
      expect(await verify(lying)).toEqual({
        provider_event_id: 'evnt_test_52lfalk2p3transfer01',
        kind: 'transfer.update',
        reference: 'trsf_test_52lfalf6pgy848klk71',
        status: 'pending',
        livemode: false,
      });
    });

    it('a replayed webhook yields the same notice (same provider_event_id, for the caller to apply once)', async () => {
      opn.on('GET /events/evnt_test_52lfalk2p3ssnhwfoez', { status: 200, fixture: 'event_charge_complete' });
      const body = Buffer.from(JSON.stringify({ object: 'event', id: 'evnt_test_52lfalk2p3ssnhwfoez' }));
      const first = await verify(body);
      const second = await verify(body);
      expect(second).toEqual(first);
      expect(opn.requests.filter((r) => r.path === '/events/evnt_test_52lfalk2p3ssnhwfoez')).toHaveLength(2);
    });

    it('Opn unavailable while verifying: unverifiable (answer 5xx so Opn redelivers), not rejected', async () => {
      opn.on('GET /events/evnt_test_52lfalk2p3ssnhwfoez', { status: 503, text: 'Service Unavailable' });
      await expect(verify({ object: 'event', id: 'evnt_test_52lfalk2p3ssnhwfoez' })).rejects.toMatchObject({
        name: 'OpnWebhookUnverifiable',
        retryable: true,
      });
    });
  });

  it('fee: Opn’s Thai rates plus 7 % VAT on the fee', () => {
    expect(collection.fee('card', 100000, 'THB')).toBe(3906); // 3650 + 255.5 VAT
    expect(collection.fee('promptpay', 100000, 'THB')).toBe(1766); // 1650 + 115.5 VAT
    expect(collection.fee('promptpay', 10, 'THB')).toBe(1);
  });

  it('configuration: a key per mode, the wrong kind refused without echoing it, base URL overridable', () => {
    expect(opnClientOptions({}, 'live')).toBeNull();
    expect(
      opnClientOptions({ OPN_SECRET_KEY_TEST: 'skey_test_abc', OPN_BASE_URL: 'http://127.0.0.1:1' }, 'test'),
    ).toMatchObject({
      secretKey: 'skey_test_abc',
      apiBase: 'http://127.0.0.1:1',
      vaultBase: 'https://vault.omise.co',
    });
    expect(() => opnClientOptions({ OPN_SECRET_KEY_LIVE: 'skey_test_abc' }, 'live')).toThrow(/OPN_SECRET_KEY_LIVE/);
    expect(() => opnClientOptions({ OPN_SECRET_KEY_LIVE: 'skey_test_abc' }, 'live')).not.toThrow(/abc/);
    expect(() => opnClientOptions({ OPN_SECRET_KEY_TEST: 'skey_live1' }, 'test')).toThrow(/test secret key/);
  });
});
