import { Clock } from '../../common/clock.js';
import { AuditChainKeeper, AuditRetention } from '../../modules/audit/index.js';
import { type CliCommand, CliUsageError } from '../command.js';
import { VerificationFailed } from './statements.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const auditCommands: Record<string, CliCommand> = {
  'audit:verify': {
    usage: 'audit:verify [--app APPLICATION_ID] [--json]',
    async run({ app, args, print }) {
      const chain = typeof args.app === 'string' ? args.app : undefined;
      if (chain !== undefined && !UUID.test(chain)) throw new CliUsageError('--app must be an application id');
      const result = await app.get(AuditChainKeeper).verify(chain);
      const lines = result.problems.map((p) => `  chain ${p.chain_id}: ${p.problem}`);
      print(
        result,
        result.problems.length === 0
          ? `${result.chains} chain(s), ${result.rows} row(s): every hash recomputes and every place is there`
          : `${result.problems.length} problem(s) in ${result.chains} chain(s)\n${lines.join('\n')}`,
      );
      if (result.problems.length > 0) throw new VerificationFailed(`${result.problems.length} problem(s)`);
    },
  },
  'audit:retention': {
    usage: 'audit:retention [--json]',
    async run({ app, print }) {
      const { rows, partitions } = await app.get(AuditRetention).purge(app.get(Clock).now());
      print(
        { removed: rows, partitions },
        `removed ${rows} audit row(s) in ${partitions.length} month(s) behind signed checkpoints`,
      );
    },
  },
};
