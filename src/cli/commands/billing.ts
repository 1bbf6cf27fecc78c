import type { Mode } from '../../common/context/principal.js';
import { RequestContext } from '../../common/context/request-context.js';
import { BillingVerifyService, type VerifyReport } from '../../modules/billing/invoicing/index.js';
import { type CliCommand, CliUsageError } from '../command.js';

/** A difference was found: the command exits 1 after printing it. */
export class BillingDifferencesFound extends Error {}

function time(name: string, raw: unknown): Date {
  const at = typeof raw === 'string' ? new Date(raw) : new Date(Number.NaN);
  if (Number.isNaN(at.getTime())) throw new CliUsageError(`--${name} must be an RFC 3339 time`);
  return at;
}

export const billingCommands: Record<string, CliCommand> = {
  'billing:verify': {
    usage: 'billing:verify (--invoice ID | --from T --to T) [--mode test|live] [--json]',
    async run({ app, args, print }) {
      const modes: Mode[] =
        args.mode === undefined ? ['test', 'live'] : args.mode === 'test' || args.mode === 'live' ? [args.mode] : [];
      if (modes.length === 0) throw new CliUsageError('--mode must be test or live');
      const invoiceId = typeof args.invoice === 'string' ? args.invoice : undefined;
      if (!invoiceId && (args.from === undefined || args.to === undefined)) {
        throw new CliUsageError('give --invoice ID, or --from and --to');
      }
      const target = invoiceId ? { invoiceId } : { from: time('from', args.from), to: time('to', args.to) };
      const total: VerifyReport = { invoices: 0, lines: 0, events: 0, differences: [] };
      for (const mode of modes) {
        const report = await app
          .get(RequestContext)
          .runInMode(mode, () => app.get(BillingVerifyService).verify(target));
        total.invoices += report.invoices;
        total.lines += report.lines;
        total.events += report.events;
        total.differences.push(...report.differences);
      }
      if (invoiceId && total.invoices === 0) throw new CliUsageError(`no subscription invoice ${invoiceId}`);
      const lines = total.differences.map(
        (d) =>
          `  invoice ${d.invoice}${d.line ? ` line ${d.line}` : ''}: ${d.field} stored ${d.stored}, recomputed ${d.recomputed}`,
      );
      print(
        total,
        `verified ${total.invoices} invoice(s), ${total.lines} line(s), ${total.events} meter event(s): ` +
          `${total.differences.length} difference(s)${lines.length ? `\n${lines.join('\n')}` : ''}`,
      );
      if (total.differences.length > 0) throw new BillingDifferencesFound(`${total.differences.length} difference(s)`);
    },
  },
};
