import { Injectable } from '@nestjs/common';
import { AuditRecorder } from '../../../common/audit/audit-recorder.js';
import { ConfigService } from '@nestjs/config';
import { Clock } from '../../../common/clock.js';
import { countryOf, type Mode, type Principal } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { newId } from '../../../common/ids.js';
import type { AllConfig } from '../../../config/app.config.js';
import { SessionsService } from '../../auth/index.js';
import { BANK_ACCOUNT_INTENT_PURPOSE, BankAccountsService } from './bank-accounts.service.js';
import type { CreateBankAccountIntentDto } from '../dto/create-bank-account.dto.js';
import type { BankAccountIntent } from '../entities/bank-account-intent.entity.js';
import { PayoutErrors } from '../payouts.errors.js';
import { BankAccountsRepository } from './bank-accounts.repository.js';

/** How long a hosted link (and its session) works: long enough to find a bank book, short enough to leak little. */
export const INTENT_TTL_SECONDS = 30 * 60;
/** Countries the hosted page has a bank list for. */
const HOSTED_COUNTRIES = new Set(['TH']);

export type IntentStatus = 'open' | 'completed' | 'expired';

function redirectUrl(field: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError(PayoutErrors.E6201, `Invalid parameter "${field}": must be an absolute URL.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AppError(PayoutErrors.E6201, `Invalid parameter "${field}": must use https or http.`);
  }
  if (url.username || url.password) {
    throw new AppError(PayoutErrors.E6201, `Invalid parameter "${field}": must not carry credentials.`);
  }
  return url.toString();
}

@Injectable()
export class BankAccountIntentsService {
  private readonly publicUrl: string;

  constructor(
    private readonly repository: BankAccountsRepository,
    private readonly bankAccounts: BankAccountsService,
    private readonly sessions: SessionsService,
    private readonly clock: Clock,
    config: ConfigService<AllConfig, true>,
    private readonly audit: AuditRecorder,
  ) {
    this.publicUrl = config.get('app.publicUrl', { infer: true });
  }

  status(intent: BankAccountIntent): IntentStatus {
    if (intent.status === 'completed') return 'completed';
    return intent.expires_at.getTime() <= this.clock.nowMs() ? 'expired' : 'open';
  }

  /** The hosted page's address; the session is added as the fragment, which browsers never send. */
  pageUrl(slug: string, mode: Mode, id: string): string {
    return `${this.publicUrl}/connect/${encodeURIComponent(slug)}/bank_account_intents/${id}${mode === 'test' ? '?test_mode=true' : ''}`;
  }

  async create(principal: Principal, dto: CreateBankAccountIntentDto) {
    const returnUrl = redirectUrl('return_url', dto.return_url);
    const refreshUrl = redirectUrl('refresh_url', dto.refresh_url);
    const country = countryOf(principal);
    if (!HOSTED_COUNTRIES.has(country)) {
      throw new AppError(PayoutErrors.E6102, `The hosted bank account page does not serve ${country} yet.`);
    }
    const account = await this.bankAccounts.account(principal, dto.account);
    const id = newId();
    const session = await this.sessions.issue({
      purpose: BANK_ACCOUNT_INTENT_PURPOSE,
      targetId: id,
      ttlSeconds: INTENT_TTL_SECONDS,
    });
    const now = this.clock.now();
    const record = {
      id,
      application_id: principal.application.id,
      account_id: account.id,
      country,
      return_url: returnUrl,
      refresh_url: refreshUrl,
      metadata: dto.metadata ?? {},
      session_id: session.sessionId,
      status: 'open' as const,
      bank_account_id: null,
      expires_at: session.expiresAt,
      completed_at: null,
      created_at: now,
      updated_at: now,
    };
    const intent = await this.repository.transaction(async (manager) => {
      const inserted = await this.repository.insertIntent(record, manager);
      await this.audit.record(manager, {
        applicationId: inserted.application_id,
        action: 'bank_account_intent.created',
        target: { type: 'bank_account_intent', id },
        metadata: { account: account.id },
      });
      return inserted;
    });
    const link = `${this.pageUrl(principal.application.slug, principal.mode, id)}#session=${session.token}`;
    return {
      session: session.token,
      link,
      id: intent.id,
      object: 'bank_account_intent' as const,
      livemode: intent.livemode,
      expires_at: intent.expires_at.toISOString(),
    };
  }

  async retrieve(principal: Principal, id: string) {
    const intent = await this.find(principal.application.id, id);
    if (!intent) throw new AppError(Errors.E4004, `No bank account intent with id "${id}".`);
    return {
      id: intent.id,
      object: 'bank_account_intent' as const,
      livemode: intent.livemode,
      account: intent.account_id,
      country: intent.country,
      status: this.status(intent),
      bank_account: intent.bank_account_id,
      return_url: intent.return_url,
      refresh_url: intent.refresh_url,
      metadata: intent.metadata,
      expires_at: intent.expires_at.toISOString(),
      completed_at: intent.completed_at ? intent.completed_at.toISOString() : null,
      created_at: intent.created_at.toISOString(),
      updated_at: intent.updated_at.toISOString(),
    };
  }

  /** The intent of the application in the bound mode, or null (the hosted page has no principal, only the application). */
  find(applicationId: string, id: string): Promise<BankAccountIntent | null> {
    return this.repository.findIntent(applicationId, id);
  }
}
