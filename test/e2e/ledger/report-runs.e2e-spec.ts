import { DataSource } from 'typeorm';
import { getDataSourceToken } from '@nestjs/typeorm';
import { RequestContext } from '../../../src/common/context/request-context.js';
import { newId } from '../../../src/common/ids.js';
import { BalancesService, PostingService, type PostingEntry } from '../../../src/modules/ledger/index.js';
import { MeterUsageService } from '../../../src/modules/meter/index.js';
import { ReportRunsJob } from '../../../src/modules/reporting/index.js';
import { sha256 } from '../../factories/files.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { expectLedgerInvariants } from '../../support/ledger-invariants.js';

const HOUR = 3600_000;

/** RFC 4180 CSV (quoted fields, doubled quotes, CRLF lines) into rows of fields. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}

/** A decimal of the CSV back to minor units (scaling 100). */
const minor = (decimal: string) => BigInt(decimal.replace('.', ''));
const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);

/**
 * Report runs against the ledger they report on: every total in each report equals the sum SQL
 * computes over the same entries, to the minor unit.
 */
describe('report runs', () => {
  let t: TestApp;
  let tenant: Tenant;
  let ds: DataSource;
  let job: ReportRunsJob;
  let start: Date;
  let end: Date;
  const scope = () => ({ applicationIds: [tenant.applicationId], modes: ['test' as const] });

  beforeAll(async () => {
    // Parts of 1 KiB: each report's CSV is streamed into the file storage in several parts.
    t = await startApp({ env: { FILE_STORAGE_PART_SIZE: '1024' } });
    tenant = await createTenant(t);
    ds = t.app.get<DataSource>(getDataSourceToken('wallet_test'));
    job = t.app.get(ReportRunsJob);
    const posting = t.app.get(PostingService);
    const balances = t.app.get(BalancesService);
    await t.app.get(RequestContext).runInMode('test', async () => {
      const balance = async (account: string, currency = 'THB') =>
        (await balances.getOrCreate({ application_id: tenant.applicationId, account, currency })).id;
      const [funding, merchant, fees, inTransit, clearing, usdFunding, usdMerchant] = [
        await balance('application'),
        await balance('customer'),
        await balance('fees'),
        await balance('payouts_in_transit'),
        await balance('provider_clearing'),
        await balance('application', 'USD'),
        await balance('customer', 'USD'),
      ];
      const post = (event_type: string, entries: PostingEntry[], description = 'report test') =>
        posting.post({ application_id: tenant.applicationId, event_type, description, entries });
      const charge = (amount: number, held: boolean, description: string) =>
        post(
          'charge.succeeded',
          [
            {
              balance_id: funding,
              currency: 'THB',
              amount: -amount,
              state: 'available',
              type: 'charge',
              source: 'payment',
            },
            {
              balance_id: merchant,
              currency: 'THB',
              amount: amount - Math.floor(amount / 40),
              state: held ? 'hold' : 'available',
              available_on: held ? new Date(t.clock.now().getTime() + 48 * HOUR) : null,
              type: 'charge',
              source: 'payment',
              fee: Math.floor(amount / 40),
              reporting_category: 'charge',
              description,
            },
            {
              balance_id: fees,
              currency: 'THB',
              amount: Math.floor(amount / 40),
              state: 'available',
              type: 'fee',
              source: 'payment',
            },
          ],
          description,
        );
      // The payouts module's journals (docs/PAYOUTS.md, "Ledger"), each entry carrying the payout as transfer.
      const payout = async (amount: number, ending: 'payout.paid' | 'payout.failed' | null) => {
        const id = newId();
        const leg = (balance_id: string, amt: number, category: string) => ({
          balance_id,
          currency: 'THB',
          amount: amt,
          state: 'available' as const,
          type: 'payout',
          source: 'payout',
          category,
          transfer_id: id,
          parent_event_type: 'payout',
          parent_event_id: id,
        });
        await post('payout.created', [leg(merchant, -amount, 'payout'), leg(inTransit, amount, 'payout')]);
        t.clock.advance(HOUR);
        if (ending === 'payout.paid') {
          await post(ending, [leg(inTransit, -amount, 'payout'), leg(clearing, amount, 'payout_clearing')]);
        } else if (ending === 'payout.failed') {
          await post(ending, [leg(inTransit, -amount, 'payout_reversal'), leg(merchant, amount, 'payout_reversal')]);
        }
        return id;
      };

      await charge(100_000, false, 'before the interval');
      t.clock.advance(HOUR);
      start = t.clock.now();
      const descriptions = ['Order 1001', 'Order "1002", gift', 'Line one\nline two', 'ร้านกาแฟ, Bangkok'];
      for (const [i, description] of descriptions.entries()) {
        await charge(10_000 * (i + 1) + 7, i % 2 === 1, description);
        t.clock.advance(HOUR / 2);
      }
      await post('adjustment', [
        {
          balance_id: usdFunding,
          currency: 'USD',
          amount: -2_500,
          state: 'available',
          type: 'adjustment',
          source: 'manual',
        },
        {
          balance_id: usdMerchant,
          currency: 'USD',
          amount: 2_500,
          state: 'available',
          type: 'adjustment',
          source: 'manual',
        },
      ]);
      await payout(20_000, 'payout.paid');
      await payout(5_001, 'payout.failed');
      await payout(3_333, null);
      t.clock.advance(HOUR);
      end = t.clock.now();
      t.clock.advance(HOUR);
      await charge(55_555, false, 'after the interval');
    });
  });
  afterAll(async () => {
    await expectLedgerInvariants(t, [tenant.applicationId]);
    await t.close();
  });

  const sql = async (text: string, extra: unknown[] = []) =>
    ds.query(text, [tenant.applicationId, start.toISOString(), end.toISOString(), ...extra]);

  /** Creates a run, lets the job produce it, and answers the run and its CSV's rows (header first). */
  async function run(
    report_type: string,
    parameters: Record<string, unknown> = {},
  ): Promise<{ run: Record<string, unknown>; rows: string[][]; csv: Buffer }> {
    const created = await t.http
      .post(tenant.path('/reporting/report_runs'))
      .set(tenant.as('test'))
      .send({
        report_type,
        parameters: { interval_start: start.toISOString(), interval_end: end.toISOString(), ...parameters },
      });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      object: 'reporting.report_run',
      status: 'pending',
      result: null,
      livemode: false,
    });
    await job.runPending(scope());
    const read = await t.http.get(tenant.path(`/reporting/report_runs/${created.body.id}`)).set(tenant.as('test'));
    expect(read.body).toMatchObject({ status: 'succeeded', error: null });
    const file = await t.http
      .get(tenant.path(`/files/${read.body.result}/contents`))
      .set(tenant.as('test'))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toMatch(/^text\/csv/);
    const rows = parseCsv((file.body as Buffer).toString('utf8'));
    expect(read.body.row_count).toBe(rows.length - 1);
    return { run: read.body, rows, csv: file.body as Buffer };
  }

  const column = (rows: string[][], name: string) => rows.slice(1).map((r) => r[rows[0].indexOf(name)]);

  it('itemizes every entry of the interval, and its net sums to the ledger, per currency', async () => {
    const { run: done, rows, csv } = await run('balance_change_from_activity.itemized.1');
    const [stored] = await ds.query(
      `SELECT f.sha256, f.size, count(p.*)::int AS parts FROM wallet_test.files f
         JOIN wallet_test.file_content_parts p ON p.key = f.storage_key WHERE f.id = $1 GROUP BY f.id`,
      [done.result],
    );
    expect(stored).toEqual({ sha256: sha256(csv), size: csv.length, parts: Math.ceil(csv.length / 1024) });
    expect(stored.parts).toBeGreaterThan(1);
    const want: Array<{ id: string; currency: string }> = await sql(
      `SELECT id, currency FROM wallet_test.balance_transactions
        WHERE application_id = $1 AND created_at >= $2 AND created_at < $3 ORDER BY created_at, id`,
    );
    expect(column(rows, 'balance_transaction_id')).toEqual(want.map((w) => w.id));
    for (const currency of ['THB', 'USD']) {
      const [{ total }] = await sql(
        `SELECT coalesce(sum(amount), 0)::text AS total, coalesce(sum(fee), 0)::text AS fees
           FROM wallet_test.balance_transactions
          WHERE application_id = $1 AND created_at >= $2 AND created_at < $3 AND currency = $4 AND amount > 0`,
        [currency],
      );
      const mine = rows.slice(1).filter((r) => r[rows[0].indexOf('currency')] === currency.toLowerCase());
      const net = mine.map((r) => minor(r[rows[0].indexOf('net')]));
      expect(sum(net.filter((n) => n > 0n)).toString()).toBe(total);
    }
    // A journal's entries sum to zero, so the whole report nets to zero per currency.
    expect(sum(column(rows, 'net').map(minor))).toBe(0n);
    // Descriptions with commas, quotes, line breaks and Thai survive the CSV.
    expect(column(rows, 'description')).toEqual(
      expect.arrayContaining(['Order "1002", gift', 'Line one\nline two', 'ร้านกาแฟ, Bangkok']),
    );
    // Local times are Bangkok's (UTC+7) for a TH request.
    const [utc, local] = [column(rows, 'created_utc')[0], column(rows, 'created')[0]];
    const shifted = new Date(new Date(utc).getTime() + 7 * HOUR).toISOString();
    expect(local).toBe(`${shifted.slice(0, 10)} ${shifted.slice(11, 19)}`);
  });

  it('summarizes each balance: starting, credits, debits and ending equal the ledger sums', async () => {
    const { run: r, rows } = await run('balance.summary.1', { currency: 'thb' });
    expect((r.parameters as Record<string, unknown>).timezone).toBe('Asia/Bangkok');
    const want: Array<Record<string, string>> = await sql(
      `SELECT balance_id,
              coalesce(sum(amount) FILTER (WHERE created_at < $2), 0)::text AS starting,
              coalesce(sum(amount) FILTER (WHERE created_at >= $2 AND amount > 0), 0)::text AS credits,
              coalesce(sum(amount) FILTER (WHERE created_at >= $2 AND amount < 0), 0)::text AS debits,
              sum(amount)::text AS ending
         FROM wallet_test.balance_transactions
        WHERE application_id = $1 AND created_at < $3 AND currency = 'THB'
        GROUP BY balance_id`,
    );
    expect(rows.length - 1).toBe(want.length);
    for (const w of want) {
      const row = rows.find((x) => x[0] === w.balance_id)!;
      const value = (name: string) => minor(row[rows[0].indexOf(name)]).toString();
      expect({
        starting: value('starting_balance'),
        credits: value('credits'),
        debits: value('debits'),
        ending: value('ending_balance'),
      }).toEqual({ starting: w.starting, credits: w.credits, debits: w.debits, ending: w.ending });
    }
    expect(new Set(column(rows, 'currency'))).toEqual(new Set(['thb']));
  });

  it('itemizes payouts with their outcome, and their amounts sum to the ledger', async () => {
    const { rows } = await run('payouts.itemized.1');
    const [{ total, n }] = await sql(
      `SELECT (-sum(amount))::text AS total, count(*)::int AS n FROM wallet_test.balance_transactions
        WHERE application_id = $1 AND created_at >= $2 AND created_at < $3 AND event_type = 'payout.created' AND amount < 0`,
    );
    expect(rows.length - 1).toBe(n);
    expect(sum(column(rows, 'amount').map(minor)).toString()).toBe(total);
    expect(column(rows, 'status')).toEqual(['paid', 'failed', 'in_transit']);

    const { rows: recon } = await run('payout_reconciliation.itemized.1', {
      columns: ['payout_id', 'net', 'balance_transaction_id'],
    });
    // The chosen columns, in the report's order.
    expect(recon[0]).toEqual(['balance_transaction_id', 'net', 'payout_id']);
    const [{ credits }] = await sql(
      `SELECT sum(amount)::text AS credits FROM wallet_test.balance_transactions
        WHERE application_id = $1 AND created_at >= $2 AND created_at < $3 AND transfer_id IS NOT NULL AND amount > 0`,
    );
    const nets = column(recon, 'net').map(minor);
    expect(sum(nets.filter((x) => x > 0n)).toString()).toBe(credits);
    expect(new Set(column(recon, 'payout_id')).size).toBe(3);
  });

  it('produces each run once when two replicas drain the queue at once, with its event', async () => {
    const body = {
      report_type: 'balance.summary.1',
      parameters: { interval_start: start.toISOString(), interval_end: end.toISOString() },
    };
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await t.http.post(tenant.path('/reporting/report_runs')).set(tenant.as('test')).send(body)).body.id);
    }
    const done = await Promise.all([job.runPending(scope()), job.runPending(scope())]);
    expect(done[0] + done[1]).toBe(3);
    const [{ files }] = await ds.query(
      `SELECT count(*)::int AS files FROM wallet_test.report_runs r JOIN wallet_test.files f ON f.id = r.result_file_id
        WHERE r.id = ANY($1::uuid[])`,
      [ids],
    );
    expect(files).toBe(3);
    const events = await t.http
      .get(tenant.path('/events?filter[type]=report_run.succeeded&limit=100'))
      .set(tenant.as('test'));
    const reported = events.body.data.map((e: { data: { object: { id: string } } }) => e.data.object.id);
    expect(reported).toEqual(expect.arrayContaining(ids));
    const list = await t.http
      .get(tenant.path(`/reporting/report_runs?use-cursor=true&limit=2&starting_after=${ids[2]}`))
      .set(tenant.as('test'));
    expect(list.status).toBe(200);
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([ids[1], ids[0]]);
  });

  it('itemizes the meter events that occurred in the interval with the invoice line billing each; values sum as SQL sums them', async () => {
    const as = tenant.as('test');
    const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
    const customer = (await t.http.post(tenant.path('/customers')).set(as).send({ name: 'Metered report' })).body;
    const meter = await t.http
      .post(tenant.path('/meters'))
      .set(as)
      .send({
        display_name: 'Report calls',
        event_name: 'report_call',
        value_settings: { event_payload_key: 'calls' },
      });
    expect(meter.status).toBe(200);
    // Timestamps are whole seconds: one before the interval, three in it (one with a decimal value),
    // one at or after its end (left out).
    const first = Math.ceil(start.getTime() / 1000) * 1000;
    const at = [first - 2000, first, first + 60_000, first + 90_000, Math.ceil(end.getTime() / 1000) * 1000];
    const values = ['1', '2', '2.5', '7', '11'];
    const sent: string[] = [];
    for (const [i, ms] of at.entries()) {
      const res = await t.http
        .post(tenant.path('/meter_events'))
        .set(as)
        .send({
          event_name: 'report_call',
          customer_id: customer.id,
          payload: { calls: values[i] },
          timestamp: stamp(ms),
          identifier: `report-${i}`,
        });
      expect(res.status).toBe(200);
      sent.push(res.body.identifier);
    }
    // An invoice line counts the first two events of the interval (the claim a period close makes).
    const [lineId, invoiceId] = [newId(), newId()];
    await t.app.get(RequestContext).runInMode('test', () =>
      ds.transaction((manager) =>
        t.app.get(MeterUsageService).claim(manager, {
          applicationId: tenant.applicationId,
          meterId: meter.body.id,
          customerId: customer.id,
          from: start,
          to: new Date(first + 60_001),
          lineId,
          invoiceId,
          at: t.clock.now(),
        }),
      ),
    );

    const { rows } = await run('meter_usage.itemized.1', { timezone: 'UTC' });
    const want: Array<{ id: string; value: string; invoice_id: string | null; line_id: string | null }> = await sql(
      `SELECT e.id, e.value::text AS value, b.invoice_id, b.line_id
         FROM wallet_test.meter_events e LEFT JOIN wallet_test.meter_event_billings b ON b.event_id = e.id
        WHERE e.application_id = $1 AND e.occurred_at >= $2 AND e.occurred_at < $3 ORDER BY e.occurred_at, e.id`,
    );
    expect(want).toHaveLength(3);
    expect(column(rows, 'meter_event_id')).toEqual(want.map((w) => w.id));
    expect(column(rows, 'identifier')).toEqual(['report-1', 'report-2', 'report-3']);
    expect(column(rows, 'value')).toEqual(['2', '2.5', '7']);
    const [{ total }] = await sql(
      `SELECT sum(value)::text AS total FROM wallet_test.meter_events
        WHERE application_id = $1 AND occurred_at >= $2 AND occurred_at < $3`,
    );
    expect(column(rows, 'value').reduce((a, v) => a + Number(v), 0)).toBe(Number(total));
    expect(column(rows, 'invoice_id')).toEqual(want.map((w) => w.invoice_id ?? ''));
    expect(column(rows, 'invoice_line_id')).toEqual([lineId, lineId, '']);
    expect(column(rows, 'billed_utc').map((v) => v !== '')).toEqual([true, true, false]);
    expect(column(rows, 'customer_id')).toEqual([customer.id, customer.id, customer.id]);
    expect(column(rows, 'occurred_utc')).toEqual(at.slice(1, 4).map((ms) => new Date(ms).toISOString()));
    expect(column(rows, 'occurred')[0]).toBe(stamp(at[1]));
  });

  it('fails a test-mode run in XTS with report_run.failed', async () => {
    const created = await t.http
      .post(tenant.path('/reporting/report_runs'))
      .set(tenant.as('test'))
      .send({
        report_type: 'balance.summary.1',
        parameters: { interval_start: start.toISOString(), interval_end: end.toISOString(), currency: 'XTS' },
      });
    await job.runPending(scope());
    const read = await t.http.get(tenant.path(`/reporting/report_runs/${created.body.id}`)).set(tenant.as('test'));
    expect(read.body).toMatchObject({ status: 'failed', result: null });
    expect(read.body.error).toEqual(expect.any(String));
    const events = await t.http.get(tenant.path('/events?filter[type]=report_run.failed')).set(tenant.as('test'));
    expect(events.body.data[0].data.object.id).toBe(created.body.id);
  });

  it('refuses bad parameters with the precise code', async () => {
    const send = (report_type: string, parameters: Record<string, unknown>) =>
      t.http
        .post(tenant.path('/reporting/report_runs'))
        .set(tenant.as('test'))
        .send({
          report_type,
          parameters: { interval_start: start.toISOString(), interval_end: end.toISOString(), ...parameters },
        });
    const future = new Date(t.clock.now().getTime() + HOUR).toISOString();
    const cases: Array<[string, Record<string, unknown>, number, string]> = [
      ['balance.summary.2', {}, 400, 'E2000'],
      ['balance.summary.1', { interval_end: 'tomorrow' }, 400, 'E2000'],
      ['balance.summary.1', { interval_end: future }, 400, 'E7900'],
      ['balance.summary.1', { interval_start: end.toISOString() }, 400, 'E7900'],
      ['payouts.itemized.1', { columns: ['payout_id', 'colour'] }, 400, 'E7901'],
      ['balance.summary.1', { timezone: 'Mars/Olympus' }, 400, 'E7902'],
      ['meter_usage.itemized.1', { currency: 'thb' }, 400, 'E7903'],
    ];
    for (const [type, parameters, status, code] of cases) {
      const res = await send(type, parameters);
      expect([type, res.status]).toEqual([type, status]);
      expectErrorObject(res.body, code);
    }
    const unknown = await t.http.get(tenant.path(`/reporting/report_runs/${newId()}`)).set(tenant.as('test'));
    expect(unknown.status).toBe(404);
    expectErrorObject(unknown.body, 'E4004');
  });
});
