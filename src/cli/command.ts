import type { INestApplicationContext } from '@nestjs/common';

export type CliArgs = Record<string, string | boolean | undefined>;

export interface CliContext {
  app: INestApplicationContext;
  args: CliArgs;
  json: boolean;
  /** Prints `value` as JSON with --json, else `text`. */
  print(value: unknown, text: string): void;
}

export interface CliCommand {
  usage: string;
  run(ctx: CliContext): Promise<void>;
}

export class CliUsageError extends Error {}

export function required(args: CliArgs, name: string): string {
  const value = args[name];
  if (typeof value !== 'string' || value === '') throw new CliUsageError(`--${name} is required`);
  return value;
}

/** A command that talks to a deployment over its public API only: no database, no Nest context. */
export interface RemoteCommand {
  usage: string;
  run(
    ctx: Omit<CliContext, 'app'> & { /** A line for stderr (never in --json output). */ warn(line: string): void },
  ): Promise<void>;
}
