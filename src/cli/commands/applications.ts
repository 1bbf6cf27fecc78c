import type { Mode } from '../../common/context/principal.js';
import { ApiKeysService, ApplicationsService, MAX_EXPIRE_OLD_SECONDS } from '../../modules/applications/index.js';
import { type CliCommand, CliUsageError, required } from '../command.js';

function mode(value: string): Mode {
  if (value !== 'test' && value !== 'live') throw new CliUsageError('--mode must be test or live');
  return value;
}

/** `customers=read,charges=write` -> `{ customers: 'read', charges: 'write' }` (checked by the service). */
function permissionsArg(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of value.split(',')) {
    const [group, level] = pair.split('=').map((p) => p.trim());
    if (!group || !level) throw new CliUsageError('--permissions is a list of group=level, e.g. customers=read');
    out[group] = level;
  }
  return out;
}

const granted = (permissions: Record<string, string>) =>
  Object.entries(permissions)
    .filter(([, level]) => level !== 'none')
    .map(([group, level]) => `${group}=${level}`)
    .join(',') || 'none';

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
  'keys:create-restricted': {
    usage:
      'keys:create-restricted --app S --mode test|live --permissions customers=read,charges=write [--name N] [--json]',
    async run({ app, args, print }) {
      const slug = required(args, 'app');
      const application = await app.get(ApplicationsService).bySlug(slug);
      if (!application) throw new CliUsageError(`no application has the slug ${slug}`);
      const created = await app.get(ApiKeysService).createRestrictedKey(application.id, mode(required(args, 'mode')), {
        name: typeof args.name === 'string' ? args.name : null,
        permissions: permissionsArg(required(args, 'permissions')),
      });
      print(
        { app: slug, ...created },
        `created restricted key ${created.secret} (shown once)\n  id: ${created.id}\n  permissions: ${granted(created.permissions)}`,
      );
    },
  },
  'keys:list': {
    usage: 'keys:list --app S [--mode test|live] [--json]',
    async run({ app, args, print }) {
      const slug = required(args, 'app');
      const application = await app.get(ApplicationsService).bySlug(slug);
      if (!application) throw new CliUsageError(`no application has the slug ${slug}`);
      const keys = app.get(ApiKeysService);
      const rows = await keys.listAll(application.id, typeof args.mode === 'string' ? mode(args.mode) : undefined);
      const listed = rows.map((row) => ({
        ...keys.toResponse(row),
        object: row.kind === 'restricted' ? 'restricted_key' : 'secret_key',
        prefix: row.prefix,
        ...(row.kind === 'restricted' ? {} : { permissions: 'all' }),
      }));
      print(
        { app: slug, keys: listed },
        listed
          .map(
            (k) =>
              `${k.prefix}… ${k.redacted_key} ${k.status}${k.expires_at ? ` (expires ${k.expires_at})` : ''} ` +
              `${k.name ?? ''} ${typeof k.permissions === 'string' ? 'all permissions' : granted(k.permissions)}`,
          )
          .join('\n') || 'no keys',
      );
    },
  },
  'keys:roll': {
    usage: 'keys:roll --key KEY_OR_PREFIX [--expire-old-in-seconds N] [--json]',
    async run({ app, args, print }) {
      const keys = app.get(ApiKeysService);
      const old = await keys.findByKeyOrPrefix(required(args, 'key'));
      if (!old || old.status !== 'active') throw new CliUsageError('no active key with this prefix');
      const raw = typeof args['expire-old-in-seconds'] === 'string' ? args['expire-old-in-seconds'] : '0';
      if (!/^\d+$/.test(raw) || Number(raw) > MAX_EXPIRE_OLD_SECONDS)
        throw new CliUsageError(`--expire-old-in-seconds must be an integer from 0 to ${MAX_EXPIRE_OLD_SECONDS}`);
      const rolled = await keys.rollKey(old.application_id, old.mode, old.id, Number(raw));
      const expiresAt = rolled.oldExpiresAt.toISOString();
      print(
        {
          key: rolled.key,
          prefix: rolled.row.prefix,
          id: rolled.row.id,
          old_prefix: old.prefix,
          old_expires_at: expiresAt,
        },
        `rolled key ${old.prefix}…: new key ${rolled.key} (shown once); the old one is refused from ${expiresAt}`,
      );
    },
  },
  'keys:revoke': {
    usage: 'keys:revoke --key KEY_OR_PREFIX [--json]  (secret or restricted)',
    async run({ app, args, print }) {
      const result = await app.get(ApplicationsService).revokeKey(required(args, 'key'));
      if (!result.revoked) throw new CliUsageError(`no active key with prefix ${result.prefix}`);
      print({ revoked: true, prefix: result.prefix }, `revoked key ${result.prefix}…`);
    },
  },
};
