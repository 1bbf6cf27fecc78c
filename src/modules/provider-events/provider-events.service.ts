import type { IncomingHttpHeaders } from 'node:http';
import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock.js';
import type { Mode } from '../../common/context/principal.js';
import { RequestContext } from '../../common/context/request-context.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import {
  WebhookNotConfigured,
  WebhookRejected,
  WebhookUnverifiable,
  type ProviderNotice,
} from '../../providers/ports/webhook.port.js';
import { ProviderAdapters } from '../../providers/provider-adapters.js';
import { AccountsService } from '../accounts/index.js';
import { ChargeOutcomesService } from '../checkout/index.js';
import { ProviderDisputesService } from '../disputes/index.js';
import type { OutcomeResult } from '../../common/providers/provider-outcomes.js';
import { PayoutsService } from '../payouts/index.js';
import { RefundsService } from '../refunds/index.js';
import { ProviderEventErrors } from './provider-events.errors.js';
import { ProviderEventsRepository, type ProviderNoticeRow } from './provider-events.repository.js';

/** What the webhook route answers (200). */
export interface ProviderWebhookReceipt {
  object: 'provider_event';
  provider: string;
  id: string;
  kind: string;
  livemode: boolean;
  /**
   * `applied`: the charge, refund, payout or dispute changed (a dispute: created or moved); `unchanged`: nothing to change (still pending,
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
    private readonly disputes: ProviderDisputesService,
    private readonly context: RequestContext,
    private readonly clock: Clock,
  ) {}

  /**
   * POST /provider_webhooks/{provider}: the provider's webhook port picks the mode the raw body
   * claims and verifies it with that mode's keys, outside any transaction; nothing in the body is
   * believed before. A name that is no plugged provider is an unknown route.
   */
  async receive(
    provider: string,
    rawBody: Buffer | undefined,
    headers: IncomingHttpHeaders,
  ): Promise<ProviderWebhookReceipt> {
    const webhooks = this.adapters.webhooksFor(provider);
    if (!webhooks) throw new AppError(Errors.E4040);
    const body = rawBody ?? Buffer.alloc(0);
    let mode: Mode;
    let notice: ProviderNotice;
    try {
      mode = webhooks.claimedMode(body);
      notice = await webhooks.verify(body, headers, mode);
    } catch (err) {
      throw this.refusal(provider, err);
    }
    return this.apply(provider, mode, notice);
  }

  /** The catalog error for a delivery the port did not verify; anything else (a bug) unchanged. */
  private refusal(provider: string, err: unknown): unknown {
    if (err instanceof WebhookRejected) return new AppError(ProviderEventErrors.E5201, `${err.message}.`);
    if (err instanceof WebhookNotConfigured) return new AppError(ProviderEventErrors.E5203, `${err.message}.`);
    if (err instanceof WebhookUnverifiable) {
      this.logger.warn(`${provider} webhook could not be verified: ${err.reason}`);
      return new AppError(ProviderEventErrors.E5202, `${err.message}.`);
    }
    return err;
  }

  /** Applies a verified notice in `mode` (its livemode must agree: a key of one mode never moves the other's money). */
  private async apply(provider: string, mode: Mode, notice: ProviderNotice): Promise<ProviderWebhookReceipt> {
    if (notice.livemode !== (mode === 'live')) {
      throw new AppError(ProviderEventErrors.E5201, `The event's livemode does not match its ${mode}-mode key.`);
    }
    const result = await this.context.runInMode(mode, () => this.applyInMode(provider, notice));
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

  private async applyInMode(provider: string, notice: ProviderNotice): Promise<ProviderWebhookReceipt['result']> {
    const row: ProviderNoticeRow = { provider, ...notice };
    const claim = (manager: EntityManager) => this.events.claim(row, this.clock.now(), manager);
    let result: OutcomeResult;
    const { status, reference } = notice;
    if (status === 'ignored') {
      await this.events.record(row, 'ignored', this.clock.now());
      return 'ignored';
    } else if (status === 'disputed' && notice.dispute) {
      result = await this.disputes.apply(provider, notice.dispute, claim);
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
