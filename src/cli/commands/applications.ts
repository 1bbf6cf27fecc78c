import type { Mode } from '../../common/context/principal.js';
import { ApplicationsService } from '../../modules/applications/index.js';
import { type CliCommand, CliUsageError, required } from '../command.js';

function mode(value: string): Mode {
  if (value !== 'test' && value !== 'live') throw new CliUsageError('--mode must be test or live');
  return value;
}

export const applicationCommands: Record<string, CliCommand> = {
  'apps:create': {
    usage: 'apps:create --slug S --countries TH,SG [--name N] [--json]',
    async run({ app, args, print }) {
      const slug = required(args, 'slug');
      const countries = required(args, 'countries').split(',');
      const name = typeof args.name === 'string' ? args.name : undefined;
      const created = await app.get(ApplicationsService).create({ slug, countries, name });
      print(
        { app: created.application.slug, keys: created.keys },
        `created application ${created.application.slug} (${created.application.countries.join(', ')})\n` +
          `  test key: ${created.keys.test}\n  live key: ${created.keys.live}\n` +
          'Keys are shown once; only their hashes are stored.',
      );
    },
  },
  'keys:create': {
    usage: 'keys:create --app S --mode test|live [--json]',
    async run({ app, args, print }) {
      const slug = required(args, 'app');
      const created = await app.get(ApplicationsService).createKey(slug, mode(required(args, 'mode')));
      print({ app: slug, key: created.key, prefix: created.prefix }, `created key ${created.key} (shown once)`);
    },
  },
  'keys:revoke': {
    usage: 'keys:revoke --key KEY_OR_PREFIX [--json]',
    async run({ app, args, print }) {
      const result = await app.get(ApplicationsService).revokeKey(required(args, 'key'));
      if (!result.revoked) throw new CliUsageError(`no active key with prefix ${result.prefix}`);
      print({ revoked: true, prefix: result.prefix }, `revoked key ${result.prefix}…`);
    },
  },
};
