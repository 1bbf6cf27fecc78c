import { Injectable } from '@nestjs/common';
import { CompactSign } from 'jose';
import { AuditRecorder } from '../../../common/audit/audit-recorder.js';
import { Clock } from '../../../common/clock.js';
import type { Scope } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { isUuid, newId } from '../../../common/ids.js';
import { LedgerRepository } from '../ledger.repository.js';
import { CHAIN_VERSION } from './entry-chain.js';
import { StatementKeys } from './statement-keys.js';
import { STATEMENT_JWS_TYPE, type StatementPayload } from './statement-verify.js';
import { StatementErrors } from './statements.errors.js';
import { StatementsRepository, type StatementRecord } from './statements.repository.js';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/i;

export interface StatementResponse {
  id: string;
  object: 'balance_statement';
  livemode: boolean;
  balance_id: string;
  as_of: string;
  kid: string;
  jws: string;
  statement: StatementPayload;
  created_at: string;
}

/** Whether the calendar date and the time of day exist (Date rolls 2026-02-30 over to March instead). */
function existing(raw: string): boolean {
  const [y, m, d, hh, mm, ss] = raw.match(/\d+/g)!.slice(0, 6).map(Number);
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCMonth() === m - 1 && day.getUTCDate() === d && hh < 24 && mm < 60 && ss < 60;
}

/** `as_of` of a statement: an RFC 3339 moment with a zone, not after now (400 E7940 otherwise). */
export function parseStatementAsOf(raw: unknown, now: Date): Date {
  const at = typeof raw === 'string' && RFC3339.test(raw) && existing(raw) ? new Date(raw) : new Date(Number.NaN);
  if (Number.isNaN(at.getTime()) || at.getTime() > now.getTime()) {
    throw new AppError(StatementErrors.E7940, 'as_of must be an RFC 3339 moment with a time zone, not in the future.');
  }
  return at;
}

/**
 * Signed balance statements (docs/LEDGER.md, "Statements"): the balance's amounts at `as_of` and
 * the head of its hash chain then, signed with the service's active Ed25519 key as a compact JWS
 * and kept as a record.
 */
@Injectable()
export class StatementsService {
  constructor(
    private readonly ledger: LedgerRepository,
    private readonly statements: StatementsRepository,
    private readonly keys: StatementKeys,
    private readonly audit: AuditRecorder,
    private readonly clock: Clock,
  ) {}

  async create(principal: Scope, balanceId: string, asOfRaw: unknown): Promise<StatementResponse> {
    const now = this.clock.now();
    const asOf = parseStatementAsOf(asOfRaw, now);
    const applicationId = principal.application.id;
    const balance = await this.ledger.findBalance(applicationId, balanceId);
    if (!balance) throw new AppError(Errors.E4004, `No balance with id "${balanceId}".`);
    const chain = await this.statements.chainAsOf(applicationId, balance.id, asOf);
    const payload: StatementPayload = {
      object: 'balance_statement',
      id: newId(),
      balance_id: balance.id,
      application_id: applicationId,
      mode: principal.mode,
      account: balance.account,
      customer_id: balance.customer_id,
      currency: balance.currency,
      scaling_factor: balance.scaling_factor,
      as_of: asOf.toISOString(),
      available: chain.available,
      pending: chain.pending,
      total: chain.available + chain.pending,
      entry_count: chain.entry_count,
      last_entry_id: chain.last_entry_id,
      last_entry_hash: chain.last_entry_hash,
      chain_version: CHAIN_VERSION,
      issued_at: now.toISOString(),
    };
    const { kid, key } = await this.keys.active();
    const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
      .setProtectedHeader({ alg: 'EdDSA', kid, typ: STATEMENT_JWS_TYPE })
      .sign(key);
    const record = {
      id: payload.id,
      application_id: applicationId,
      balance_id: balance.id,
      as_of: asOf,
      kid,
      payload: payload as unknown as Record<string, unknown>,
      jws,
      created_at: now,
    };
    await this.statements.transaction(async (manager) => {
      await this.statements.insert(record, manager);
      await this.audit.record(manager, {
        applicationId,
        action: 'balance_statement.created',
        target: { type: 'balance_statement', id: record.id },
        metadata: { balance_id: balance.id, as_of: payload.as_of },
      });
    });
    return toResponse(record, principal.livemode);
  }

  /** A statement signed earlier, as it was answered then. */
  async retrieve(principal: Scope, balanceId: string, id: string): Promise<StatementResponse> {
    const record =
      isUuid(balanceId) && isUuid(id) ? await this.statements.find(principal.application.id, balanceId, id) : null;
    if (!record) throw new AppError(Errors.E4004, `No statement with id "${id}" of balance "${balanceId}".`);
    return toResponse(record, principal.livemode);
  }

  /** What `ledger:verify-chain` reports for the current mode (optionally one balance): empty when every chain recomputes. */
  brokenChains(balanceId?: string) {
    return this.statements.brokenChains(balanceId);
  }
}

function toResponse(record: StatementRecord, livemode: boolean): StatementResponse {
  return {
    id: record.id,
    object: 'balance_statement',
    livemode,
    balance_id: record.balance_id,
    as_of: new Date(record.as_of).toISOString(),
    kid: record.kid,
    jws: record.jws,
    statement: record.payload as unknown as StatementPayload,
    created_at: new Date(record.created_at).toISOString(),
  };
}
