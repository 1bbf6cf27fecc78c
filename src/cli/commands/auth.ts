import { readFileSync } from 'node:fs';
import { OAuthService } from '../../modules/auth/index.js';
import { ROLES, UsersService } from '../../modules/users/index.js';
import { type CliArgs, type CliCommand, CliUsageError, required } from '../command.js';

/** `--password P`, or `--password-stdin` to keep it out of the process list and shell history. */
function password(args: CliArgs): string {
  if (args['password-stdin'] === true) {
    const value = readFileSync(0, 'utf8').replace(/\r?\n$/, '');
    if (!value) throw new CliUsageError('no password on standard input');
    return value;
  }
  return required(args, 'password');
}

export const authCommands: Record<string, CliCommand> = {
  'users:create': {
    usage: 'users:create --email E (--password P | --password-stdin) [--name N] [--superuser] [--json]',
    async run({ app, args, print }) {
      const user = await app.get(UsersService).create({
        email: required(args, 'email'),
        password: password(args),
        name: typeof args.name === 'string' ? args.name : undefined,
        superuser: args.superuser === true,
      });
      print(user, `created user ${user.email} (${user.id})${user.is_superuser ? ', superuser' : ''}`);
    },
  },
  'users:grant': {
    usage: `users:grant --email E (--app S --role ${ROLES.join('|')} | --superuser | --no-superuser) [--json]`,
    async run({ app, args, print }) {
      const users = app.get(UsersService);
      const email = required(args, 'email');
      let user;
      if (args.superuser === true || args['no-superuser'] === true) {
        user = await users.setSuperuser(email, args.superuser === true);
      } else {
        user = await users.grant({ email, app: required(args, 'app'), role: required(args, 'role') });
      }
      const roles = user.memberships.map((m) => `${m.application.slug}: ${m.role}`).join(', ') || 'none';
      print(user, `${user.email}: superuser ${user.is_superuser ? 'yes' : 'no'}; memberships ${roles}`);
    },
  },
  'clients:create': {
    usage: 'clients:create --name N --type public|confidential --redirect-uri URI[,URI...] [--json]',
    async run({ app, args, print }) {
      const created = await app.get(OAuthService).createClient({
        name: required(args, 'name'),
        type: required(args, 'type'),
        redirectUris: required(args, 'redirect-uri')
          .split(',')
          .map((u) => u.trim())
          .filter(Boolean),
      });
      print(
        created,
        `created ${created.type} OAuth client "${created.name}"\n  client_id:     ${created.client_id}\n` +
          (created.client_secret
            ? `  client_secret: ${created.client_secret} (shown once; only its hash is stored)\n`
            : '') +
          `  redirect URIs: ${created.redirect_uris.join(', ')}`,
      );
    },
  },
};
