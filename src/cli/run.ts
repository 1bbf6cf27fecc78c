import 'reflect-metadata';
import { userInfo } from 'node:os';
import { ClsService } from 'nestjs-cls';
import { NestFactory } from '@nestjs/core';
import { AppError } from '../common/errors/app-error.js';
import { DatabaseEndpoint } from '../common/database/database-endpoint.js';
import { RequestContext } from '../common/context/request-context.js';
import { ConfigError, loadAppConfig } from '../config/app.config.js';
import { type CliArgs, type CliCommand, CliUsageError, type RemoteCommand } from './command.js';
import { applicationCommands } from './commands/applications.js';
import { auditCommands } from './commands/audit.js';
import { authCommands } from './commands/auth.js';
import { BillingDifferencesFound, billingCommands } from './commands/billing.js';
import { eventCommands } from './commands/events.js';
import { statementCommands, statementVerifyCommands, VerificationFailed } from './commands/statements.js';

const COMMANDS: Record<string, CliCommand> = {
  ...applicationCommands,
  ...auditCommands,
  ...authCommands,
  ...billingCommands,
  ...statementCommands,
};
/** Commands that use only a deployment's URL and key: run before any configuration or database. */
const REMOTE: Record<string, RemoteCommand> = { ...eventCommands, ...statementVerifyCommands };

function help(): string {
  return [
    'usage: npm run cli -- <command> [flags]',
    '  migrations:run',
    ...Object.values(COMMANDS).map((c) => `  ${c.usage}`),
    ...Object.values(REMOTE).map((c) => `  ${c.usage}`),
  ].join('\n');
}

/** `--name value`, `--name=value`, or a bare `--flag` (true). Anything else is a usage error. */
export function parseFlags(argv: string[]): CliArgs {
  const args: CliArgs = {};
  for (let i = 0; i < argv.length; i++) {
    const match = /^--([a-z][a-z0-9-]*)(?:=(.*))?$/.exec(argv[i]);
    if (!match) throw new CliUsageError(`unexpected argument "${argv[i]}"`);
    const [, name, inline] = match;
    if (inline !== undefined) args[name] = inline;
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) args[name] = argv[++i];
    else args[name] = true;
  }
  return args;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help') {
    console.log(help());
    return 0;
  }
  const remote = REMOTE[name];
  if (remote) {
    // A leading bare word is the command's subject (events:trigger TYPE, statements:verify FILE).
    const subject = rest[0] !== undefined && !rest[0].startsWith('--') ? rest[0] : undefined;
    const args = parseFlags(subject === undefined ? rest : rest.slice(1));
    if (subject !== undefined) args.type = args.subject = subject;
    const json = args.json === true;
    await remote.run({
      args,
      json,
      print: (value, text) => console.log(json ? JSON.stringify(value) : text),
      warn: (line) => console.error(line),
    });
    return 0;
  }
  // The CLI is a short-lived process: no background jobs, quiet logs unless asked for.
  process.env.RUN_JOBS = 'false';
  delete process.env.METRICS_PORT; // the server in the same pod holds that port
  process.env.LOG_LEVEL ??= 'warn';
  const config = loadAppConfig();

  if (name === 'migrations:run') {
    const endpoint = await DatabaseEndpoint.open({ ...config, migrateOnBoot: false });
    try {
      const applied = await endpoint.migrate();
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'no pending migrations');
    } finally {
      await endpoint.onApplicationShutdown();
    }
    return 0;
  }

  const command = COMMANDS[name];
  if (!command) {
    console.error(`unknown command "${name}"\n${help()}`);
    return 2;
  }
  const args = parseFlags(rest);
  const json = args.json === true;

  const { AppModule } = await import('../app.module.js');
  const app = await NestFactory.createApplicationContext(AppModule, { logger: ['error'] });
  try {
    // The operator is the audit log's actor for what the command changes (docs/AUDIT.md).
    await app.get(ClsService).run(() => {
      app.get(RequestContext).set('operator', operatorName());
      return command.run({
        app,
        args,
        json,
        print: (value, text) => console.log(json ? JSON.stringify(value) : text),
      });
    });
    return 0;
  } finally {
    await app.close();
  }
}

/** The OS account running the command. */
function operatorName(): string {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    // A check that found problems has printed them: exit once stdout has taken all of it (a long
    // --json report into a pipe is written asynchronously, and process.exit would cut it).
    if (err instanceof BillingDifferencesFound || err instanceof VerificationFailed) {
      process.stdout.write('', () => process.exit(1));
      return;
    }
    if (err instanceof CliUsageError || err instanceof ConfigError) console.error(`error: ${err.message}`);
    else if (err instanceof AppError) console.error(`error: ${err.definition.code} ${err.message}`);
    else console.error(err);
    process.exit(err instanceof CliUsageError || err instanceof AppError || err instanceof ConfigError ? 2 : 1);
  },
);
