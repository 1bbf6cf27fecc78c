import type { LedgerReportKind, ReportRow } from '../ledger/index.js';
import { decimal, localTime } from './csv.js';

export const REPORT_TYPES = [
  'balance.summary.1',
  'balance_change_from_activity.itemized.1',
  'payouts.itemized.1',
  'payout_reconciliation.itemized.1',
  'meter_usage.itemized.1',
] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

/** A column: its name in the CSV header and how a row of the ledger's statement gives its value. */
type Column = [name: string, value: (row: ReportRow, timeZone: string) => string];

const text = (field: string) => (row: ReportRow) => (row[field] === null ? '' : String(row[field]));
const money = (field: string) => (row: ReportRow) => decimal(row[field] as string, Number(row.scaling_factor));
const time = (field: string) => (row: ReportRow, tz: string) => localTime(row[field] as Date | null, tz);
const utc = (field: string) => (row: ReportRow) => (row[field] ? new Date(row[field] as string).toISOString() : '');

const ENTRY_COLUMNS: Column[] = [
  ['balance_transaction_id', text('id')],
  ['created_utc', utc('created_at')],
  ['created', time('created_at')],
  ['available_on', time('available_on')],
  ['currency', (r) => String(r.currency).toLowerCase()],
  ['gross', money('gross_amount')],
  ['fee', money('fee')],
  ['net', money('net')],
  ['state', text('state')],
  ['reporting_category', text('reporting_category')],
  ['type', text('type')],
  ['source', text('source')],
  ['description', text('description')],
  ['balance_id', text('balance_id')],
  ['account', text('account')],
  ['customer_id', text('customer_id')],
  ['journal_id', text('journal_id')],
  ['event_type', text('event_type')],
  ['event_id', text('event_id')],
  ['payout_id', text('transfer_id')],
];

const ENDED_STATUS: Record<string, string> = {
  'payout.paid': 'paid',
  'payout.failed': 'failed',
  'payout.canceled': 'canceled',
};

/** Where a report's rows come from: one of the ledger's statements, or metering's events. */
export type ReportSource = { ledger: LedgerReportKind } | { meter: 'usage' };

export interface ReportDefinition {
  source: ReportSource;
  columns: Column[];
  /** Whether `parameters.currency` applies (meter events have no currency: E7903 when given). */
  currency: boolean;
}

/** Each report type: which of the ledger's statements feeds it and its columns (docs/REPORTS.md). */
export const REPORTS: Record<ReportType, ReportDefinition> = {
  'balance.summary.1': {
    source: { ledger: 'balance_summary' },
    currency: true,
    columns: [
      ['balance_id', text('balance_id')],
      ['account', text('account')],
      ['customer_id', text('customer_id')],
      ['currency', (r) => String(r.currency).toLowerCase()],
      ['starting_balance', money('starting')],
      ['credits', money('credits')],
      ['debits', money('debits')],
      [
        'net_change',
        (r) => decimal(BigInt(r.credits as string) + BigInt(r.debits as string), Number(r.scaling_factor)),
      ],
      [
        'ending_balance',
        (r) =>
          decimal(
            BigInt(r.starting as string) + BigInt(r.credits as string) + BigInt(r.debits as string),
            Number(r.scaling_factor),
          ),
      ],
      ['entry_count', text('entry_count')],
    ],
  },
  'balance_change_from_activity.itemized.1': { source: { ledger: 'entries' }, currency: true, columns: ENTRY_COLUMNS },
  'payouts.itemized.1': {
    source: { ledger: 'payouts' },
    currency: true,
    columns: [
      ['payout_id', text('payout_id')],
      ['created_utc', utc('created_at')],
      ['created', time('created_at')],
      ['currency', (r) => String(r.currency).toLowerCase()],
      ['amount', money('amount')],
      ['status', (r) => (r.ended_by ? ENDED_STATUS[r.ended_by as string] : 'in_transit')],
      ['ended', time('ended_at')],
      ['balance_id', text('balance_id')],
      ['account', text('account')],
      ['customer_id', text('customer_id')],
    ],
  },
  'payout_reconciliation.itemized.1': {
    source: { ledger: 'transfer_entries' },
    currency: true,
    columns: ENTRY_COLUMNS,
  },
  'meter_usage.itemized.1': {
    source: { meter: 'usage' },
    currency: false,
    columns: [
      ['meter_event_id', text('id')],
      ['identifier', text('identifier')],
      ['event_name', text('event_name')],
      ['meter_id', text('meter_id')],
      ['customer_id', text('customer_id')],
      ['value', text('value')],
      ['occurred_utc', utc('occurred_at')],
      ['occurred', time('occurred_at')],
      ['received_utc', utc('created_at')],
      ['invoice_id', text('invoice_id')],
      ['invoice_line_id', text('line_id')],
      ['billed_utc', utc('billed_at')],
    ],
  },
};

/** The CSV line of `row` for the chosen columns (their order is the report's). */
export function columnsOf(type: ReportType, chosen: readonly string[] | null): Column[] {
  const all = REPORTS[type].columns;
  return chosen ? all.filter(([name]) => chosen.includes(name)) : all;
}
