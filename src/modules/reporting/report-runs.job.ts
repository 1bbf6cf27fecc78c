import { PassThrough } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { scopeOf, type Mode } from '../../common/context/principal.js';
import { EventRecorder } from '../../common/events/event-recorder.js';
import type { JobScope } from '../../common/jobs/job-scope.js';
import { PeriodicJob } from '../../common/jobs/periodic-job.js';
import { ApplicationsService } from '../applications/index.js';
import { FilesService } from '../files/index.js';
import { LedgerReports, type ReportRow } from '../ledger/index.js';
import { MeterUsageReports } from '../meter/index.js';
import { csvLine } from './csv.js';
import type { ReportRun } from './entities/report-run.entity.js';
import { columnsOf, REPORTS, type ReportType } from './report-types.js';
import { reportRunTransition } from './report-run.transitions.js';
import { ReportRunsRepository } from './report-runs.repository.js';
import { toReportRunResponse } from './report-runs.responses.js';

const INTERVAL_MS = 5_000;
/** How long a replica holds a run it produces; a run whose replica died is taken again after it. */
const LEASE_MS = 10 * 60_000;
/** ISO 4217's code for testing: a test-mode run in it fails, so `report_run.failed` can be seen (docs/REPORTS.md). */
const SANDBOX_FAILING_CURRENCY = 'XTS';
/**
 * The CSV is handed on in pieces of about this many characters: a string (and its Buffer) this
 * small is a young-generation object that dies at the next scavenge, where a batch's whole text
 * (~600 KB for 2,000 rows) would go to V8's large-object space and wait for a full GC.
 */
const CHUNK_CHARS = 32 * 1024;
/**
 * Rows per cursor fetch: a batch's row objects (~1.5 KB each) live until its CSV is written, so a
 * smaller batch is more often young garbage than promoted to the old generation (bench:reports).
 */
const FETCH_ROWS = 500;

/**
 * Produces pending report runs (docs/REPORTS.md): claims one run at a time under a lease (FOR UPDATE
 * SKIP LOCKED, so replicas share the queue), streams the ledger's rows through a cursor into CSV,
 * stores the CSV as a file, and marks the run succeeded (or failed) with its event, in one
 * transaction that checks the lease is still this replica's.
 */
@Injectable()
export class ReportRunsJob extends PeriodicJob {
  constructor(
    private readonly runs: ReportRunsRepository,
    private readonly ledger: LedgerReports,
    private readonly usage: MeterUsageReports,
    private readonly files: FilesService,
    private readonly applications: ApplicationsService,
    private readonly events: EventRecorder,
  ) {
    super(INTERVAL_MS);
  }

  protected runOnce(): Promise<unknown> {
    return this.runPending();
  }

  /** Produces every pending run of the scope; answers how many were finished (succeeded or failed). */
  async runPending(scope: JobScope = {}): Promise<number> {
    const done = await this.eachScopedMode(scope, (mode) => this.untilDrained(1, () => this.runOne(mode, scope)));
    return done.reduce((sum, n) => sum + n, 0);
  }

  private async runOne(mode: Mode, scope: JobScope): Promise<number> {
    const now = this.clock.now();
    const until = new Date(now.getTime() + LEASE_MS);
    const run = await this.runs.claimPending(now, until, scope.applicationIds ?? null);
    if (!run) return 0;
    const application = (await this.applications.byIds([run.application_id])).get(run.application_id);
    if (!application) return 0;
    await this.context.runInMode(
      mode,
      async () => {
        let outcome: { fileId: string; rows: number } | { error: string };
        try {
          if (mode === 'test' && run.parameters.currency === SANDBOX_FAILING_CURRENCY) {
            throw new Error(`sandbox: a test-mode report in ${SANDBOX_FAILING_CURRENCY} fails`);
          }
          const { result: file, rows } = await this.produce(run, (body) =>
            this.files.storeGenerated(scopeOf(application, mode), {
              purpose: 'finance_report_run',
              filename: `${run.report_type}-${run.id}.csv`,
              type: 'csv',
              body,
            }),
          );
          outcome = { fileId: file.id, rows };
        } catch (error) {
          this.logger.error({ err: error, report_run: run.id }, 'report run failed');
          outcome = { error: 'The report could not be produced; run it again.' };
        }
        await this.complete(run, until, outcome);
      },
      { application },
    );
    return 1;
  }

  /**
   * The CSV, handed to `store` as a stream while the ledger's rows are read: a header line, then
   * one line per row, a batch of rows at a time, the reading paused while the store is behind
   * (memory stays bounded whatever the row count). A failed read fails the stream, so the store
   * keeps nothing; a failed store stops the reading at its next batch.
   */
  private async produce<T>(
    run: ReportRun,
    store: (body: AsyncIterable<Buffer>) => Promise<T>,
  ): Promise<{ result: T; rows: number }> {
    const csv = new PassThrough();
    // The store's reading sees a failure through the stream's state; this keeps it from being uncaught.
    csv.on('error', () => undefined);
    const writing = this.writeCsv(run, csv).then(
      (rows) => {
        csv.end();
        return rows;
      },
      (error: unknown) => {
        csv.destroy(error instanceof Error ? error : new Error(String(error)));
        throw error;
      },
    );
    writing.catch(() => undefined); // awaited below once the store succeeded; else the store's error is the one thrown
    try {
      const result = await store(csv);
      return { result, rows: await writing };
    } finally {
      csv.destroy();
    }
  }

  private async writeCsv(run: ReportRun, csv: PassThrough): Promise<number> {
    const p = run.parameters;
    const columns = columnsOf(run.report_type as ReportType, p.columns);
    await send(csv, csvLine(columns.map(([name]) => name)));
    const onRows = async (batch: ReportRow[]) => {
      let text = '';
      for (const row of batch) {
        text += csvLine(columns.map(([, value]) => value(row, p.timezone)));
        if (text.length >= CHUNK_CHARS) {
          await send(csv, text);
          text = '';
        }
      }
      if (text.length > 0) await send(csv, text);
    };
    const source = REPORTS[run.report_type as ReportType].source;
    const window = { applicationId: run.application_id, from: p.interval_start, to: p.interval_end };
    return 'ledger' in source
      ? this.ledger.stream(source.ledger, { ...window, currency: p.currency }, onRows, FETCH_ROWS)
      : this.usage.stream(window, onRows, FETCH_ROWS);
  }

  private async complete(
    run: ReportRun,
    claimedUntil: Date,
    outcome: { fileId: string; rows: number } | { error: string },
  ): Promise<void> {
    const now = this.clock.now();
    const succeeded = 'fileId' in outcome;
    const status = reportRunTransition(run.status, succeeded ? 'succeed' : 'fail', run.id);
    await this.runs.transaction(async (manager) => {
      const written = await this.runs.writeStatus(
        run.application_id,
        run.id,
        claimedUntil,
        status,
        succeeded
          ? { result_file_id: outcome.fileId, row_count: outcome.rows, succeeded_at: now, updated_at: now }
          : { error: outcome.error, updated_at: now },
        manager,
      );
      if (!written) return;
      await this.events.record(manager, {
        applicationId: run.application_id,
        type: succeeded ? 'report_run.succeeded' : 'report_run.failed',
        object: toReportRunResponse(written),
        request: null,
      });
    });
  }
}

/** Writes `text` and waits while the reader is behind; throws once the reader stopped (the store failed). */
async function send(csv: PassThrough, text: string): Promise<void> {
  if (csv.destroyed) throw new Error('the file store stopped reading the report');
  if (csv.write(text)) return;
  await new Promise<void>((resolve) => {
    const go = () => {
      csv.off('drain', go);
      csv.off('close', go);
      resolve();
    };
    csv.on('drain', go);
    csv.on('close', go);
  });
  if (csv.destroyed) throw new Error('the file store stopped reading the report');
}
