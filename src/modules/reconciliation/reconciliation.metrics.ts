import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { Metrics } from '../../common/observability/metrics.js';
import type { Outcome } from './outcomes.js';

/** Reconciliation in /metrics: the items of finished runs by provider and outcome. */
@Injectable()
export class ReconciliationMetrics {
  private readonly items: Counter<'provider' | 'outcome'>;

  constructor(metrics: Metrics) {
    this.items = new Counter({
      name: 'wallet_reconciliation_items_total',
      help: 'Settlement items reconciled with the ledger, by provider and outcome (matched, missing_in_ledger, missing_at_provider, amount_mismatch, fee_mismatch, duplicate).',
      labelNames: ['provider', 'outcome'] as const,
      registers: [metrics.registry],
    });
  }

  finished(provider: string, counts: Record<Outcome, number>): void {
    for (const [outcome, n] of Object.entries(counts)) this.items.inc({ provider, outcome }, n);
  }
}
