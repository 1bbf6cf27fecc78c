import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock.js';
import type { Mode } from '../../common/context/principal.js';
import { RequestContext } from '../../common/context/request-context.js';
import { AppError } from '../../common/errors/app-error.js';
import { OpnWebhookRejected, OpnWebhookUnverifiable } from '../../providers/opn/opn-webhooks.js';
import { ProviderAdapters } from '../../providers/provider-adapters.js';
import { StripeWebhookRejected } from '../../providers/stripe/stripe-webhooks.js';
import { AccountsService } from '../accounts/index.js';
import { type ProviderKyb } from '../../providers/ports/connect.port.js';
import { ChargeOutcomesService, type OutcomeResult } from '../checkout/index.js';
import { PayoutsService } from '../payouts/index.js';
import { RefundsService } from '../refunds/index.js';
import { ProviderEventErrors } from './provider-events.errors.js';
import { ProviderEventsRepository, type ProviderNoticeRow } from './provider-events.repository.js';

/** A verified notice in the shape both adapters return (OpnNotice, StripeNotice). */
export interface ProviderNotice {
  provider_event_id: string;
  kind: string;
  reference: string;
  status: 'succeeded' | 'failed' | 'pending' | 'in_transit' | 'paid' | 'canceled' | 'verified' | 'rejected' | 'ignored';
  livemode: boolean;
  /** A failed transfer's reason, as the provider gave it (payout notices). */
  failure?: { code: string; message: string };
  /** A provider account's KYB (Stripe `account.updated`). */
  kyb?: ProviderKyb;
}

/** What the webhook route answers (200). */
export interface ProviderWebhookReceipt {
  object: 'provider_event';
  provider: string;
  id: string;
  kind: string;
  livemode: boolean;
  /**
   * `applied`: the charge, refund or payout changed; `unchanged`: nothing to change (still pending,
   * already final); `duplicate`: this event was applied before; `unmatched`: no object of this
   * service has that reference (the reconciliation job reads pending ones back); `ignored`: a kind
   * the service does not act on.
   */
  result: OutcomeResult | 'unmatched' | 'ignored';
}

const CHARGE_KINDS = /^(charge|payment_intent)\./;
const REFUND_KINDS = /^refund\./;
const TRANSFER_KINDS = /^(transfer|payout)\./;
const TRANSFER_STATUSES = new Set(['pending', 'in_transit', 'paid', 'failed', 'canceled']);
type TransferStatus = 'pending' | 'in_transit' | 'paid' | 'failed' | 'canceled';

/**
 * Inbound provider webhooks (docs/PROVIDERS.md). Each notice is verified by its adapter before
 * anything is believed (Opn: the event re-fetched by id with the mode's key; Stripe: the
 * Stripe-Signature HMAC with the mode's webhook secret), outside any transaction; then it is
 * applied in its mode's schema by the module that owns the object (checkout's charges, refunds,
 * payouts), which claims the notice in provider_events inside its own transaction: a replay
 * changes nothing.
 */
@Injectable()
export class ProviderEventsService {
  private readonly logger = new Logger(ProviderEventsService.name);

  constructor(
    private readonly adapters: ProviderAdapters,
    private readonly events: ProviderEventsRepository,
    private readonly charges: ChargeOutcomesService,
    private readonly refunds: RefundsService,
    private readonly payouts: PayoutsService,
    private readonly accounts: AccountsService,
    private readonly context: RequestContext,
    private readonly clock: Clock,
  ) {}

  /** POST /provider_webhooks/opn: only the event id is read from the body; Opn is asked for the rest. */
  async receiveOpn(body: unknown): Promise<ProviderWebhookReceipt> {
    const claimed = (body as { id?: unknown } | null)?.id;
    if (typeof claimed !== 'string' || !claimed.startsWith('evnt_')) {
      throw new AppError(ProviderEventErrors.E5201, 'The body is not an Opn event (no evnt_ id).');
    }
    // Opn's test events are evnt_test_…: the id says which mode's key can read it back.
    const mode: Mode = claimed.startsWith('evnt_test_') ? 'test' : 'live';
    const webhooks = this.adapters.opnWebhooksFor(mode);
    if (!webhooks) throw new AppError(ProviderEventErrors.E5203, `Opn has no ${mode}-mode keys here.`);
    let notice: ProviderNotice;
    try {
      notice = await webhooks.parse(body as Record<string, unknown>);
    } catch (err) {
      if (err instanceof OpnWebhookRejected) throw new AppError(ProviderEventErrors.E5201, `${err.message}.`);
      if (err instanceof OpnWebhookUnverifiable) {
        this.logger.warn(`Opn event ${claimed} could not be verified: ${err.message}`);
        throw new AppError(ProviderEventErrors.E5202, 'Opn could not be reached to verify the event.');
      }
      throw err;
    }
    return this.receive('opn', mode, notice);
  }

  /** POST /provider_webhooks/stripe: the raw body and its Stripe-Signature, verified with the mode's secret. */
  async receiveStripe(rawBody: Buffer | undefined, signature: string | undefined): Promise<ProviderWebhookReceipt> {
    if (!rawBody) throw new AppError(ProviderEventErrors.E5201, 'The body is not a Stripe event.');
    let claimedLivemode: unknown;
    try {
      claimedLivemode = (JSON.parse(rawBody.toString('utf8')) as { livemode?: unknown } | null)?.livemode;
    } catch {
      claimedLivemode = undefined;
    }
    if (typeof claimedLivemode !== 'boolean') {
      throw new AppError(ProviderEventErrors.E5201, 'The body is not a Stripe event (no livemode).');
    }
    // The claimed mode only picks the secret: a body lying about it does not verify with that secret.
    const mode: Mode = claimedLivemode ? 'live' : 'test';
    const webhooks = this.adapters.stripeWebhooksFor(mode);
    if (!webhooks) {
      throw new AppError(
        ProviderEventErrors.E5203,
        `Stripe has no ${mode}-mode keys or STRIPE_WEBHOOK_SECRET_${mode.toUpperCase()} here.`,
      );
    }
    let notice: ProviderNotice;
    try {
      notice = webhooks.parse(rawBody, signature);
    } catch (err) {
      if (err instanceof StripeWebhookRejected) throw new AppError(ProviderEventErrors.E5201, `${err.message}.`);
      throw err;
    }
    return this.receive('stripe', mode, notice);
  }

  /** Applies a verified notice in `mode` (its livemode must agree: a key of one mode never moves the other's money). */
  private async receive(provider: string, mode: Mode, notice: ProviderNotice): Promise<ProviderWebhookReceipt> {
    if (notice.livemode !== (mode === 'live')) {
      throw new AppError(ProviderEventErrors.E5201, `The event's livemode does not match its ${mode}-mode key.`);
    }
    const result = await this.context.runInMode(mode, () => this.apply(provider, notice));
    this.logger.log(`${provider} event ${notice.provider_event_id} (${notice.kind}, ${mode}): ${result}`);
    return {
      object: 'provider_event',
      provider,
      id: notice.provider_event_id,
      kind: notice.kind,
      livemode: notice.livemode,
      result,
    };
  }

  private async apply(provider: string, notice: ProviderNotice): Promise<ProviderWebhookReceipt['result']> {
    const row: ProviderNoticeRow = { provider, ...notice };
    const claim = (manager: EntityManager) => this.events.claim(row, this.clock.now(), manager);
    let result: OutcomeResult;
    const { status, reference } = notice;
    if (status === 'ignored') {
      await this.events.record(row, 'ignored', this.clock.now());
      return 'ignored';
    } else if (
      CHARGE_KINDS.test(notice.kind) &&
      (status === 'succeeded' || status === 'failed' || status === 'pending')
    ) {
      result = await this.charges.apply(provider, { status, reference }, claim);
    } else if (
      REFUND_KINDS.test(notice.kind) &&
      (status === 'succeeded' || status === 'failed' || status === 'pending')
    ) {
      result = await this.refunds.applyProviderOutcome(provider, { status, reference }, claim);
    } else if (TRANSFER_KINDS.test(notice.kind) && TRANSFER_STATUSES.has(status)) {
      const failure = notice.failure;
      const transfer = { status: status as TransferStatus, reference, failure };
      result = await this.payouts.applyProviderOutcome(provider, transfer, claim);
    } else if (notice.kind === 'account.updated' && notice.kyb) {
      result = await this.accounts.applyProviderKyb(provider, reference, notice.kyb, claim);
    } else {
      await this.events.record(row, 'ignored', this.clock.now());
      return 'ignored';
    }
    if (result === 'unknown') {
      await this.events.record(row, 'unmatched', this.clock.now());
      return 'unmatched';
    }
    return result;
  }
}
