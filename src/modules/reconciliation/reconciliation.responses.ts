import type { ReconciliationItem } from './entities/reconciliation-item.entity.js';
import type { ReconciliationRun } from './entities/reconciliation-run.entity.js';

export function toReconciliationRunResponse(r: ReconciliationRun) {
  return {
    id: r.id,
    object: 'reconciliation_run' as const,
    livemode: r.livemode,
    provider: r.provider,
    payout: r.payout,
    interval_start: r.interval_start ? r.interval_start.toISOString() : null,
    interval_end: r.interval_end ? r.interval_end.toISOString() : null,
    trigger: r.trigger,
    status: r.status,
    error: r.error,
    line_count: r.line_count,
    item_count: r.item_count,
    mismatch_count: r.mismatch_count,
    outcomes: r.outcomes,
    created_at: r.created_at.toISOString(),
    succeeded_at: r.succeeded_at ? r.succeeded_at.toISOString() : null,
    updated_at: r.updated_at.toISOString(),
  };
}

export type ReconciliationRunResponse = ReturnType<typeof toReconciliationRunResponse>;

export function toReconciliationItemResponse(i: ReconciliationItem) {
  return {
    id: i.id,
    object: 'reconciliation_item' as const,
    livemode: i.livemode,
    run: i.run_id,
    outcome: i.outcome,
    reference: i.reference,
    type: i.type,
    record: i.record_id,
    currency: i.currency,
    ledger_amount: i.ledger_amount,
    provider_amount: i.provider_amount,
    ledger_fee: i.ledger_fee,
    provider_fee: i.provider_fee,
    provider_lines: i.provider_lines,
    created_at: i.created_at.toISOString(),
  };
}

export type ReconciliationItemResponse = ReturnType<typeof toReconciliationItemResponse>;
