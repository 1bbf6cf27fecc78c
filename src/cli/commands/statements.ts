import { readFile } from 'node:fs/promises';
import type { Mode } from '../../common/context/principal.js';
import { RequestContext } from '../../common/context/request-context.js';
import {
  entriesOfExport,
  StatementKeys,
  StatementsService,
  verifyStatement,
  type StatementVerification,
} from '../../modules/ledger/index.js';
import { type CliArgs, type CliCommand, CliUsageError, type RemoteCommand } from '../command.js';

/** A check found a problem: the command exits 1 after printing it. */
export class VerificationFailed extends Error {}

async function readJson(what: string, source: string): Promise<unknown> {
  const text = /^https?:\/\//.test(source)
    ? await fetch(source).then((res) => {
        if (!res.ok) throw new CliUsageError(`${what}: ${source} answered ${res.status}`);
        return res.text();
      })
    : await readFile(source, 'utf8').catch(() => {
        throw new CliUsageError(`${what}: cannot read ${source}`);
      });
  try {
    return JSON.parse(text);
  } catch {
    throw new CliUsageError(`${what}: ${source} is not JSON`);
  }
}

/** The statement file: the POST /balances/{id}/statements answer (JSON), or the bare compact JWS. */
async function readStatement(file: string): Promise<string> {
  const text = (
    await readFile(file, 'utf8').catch(() => {
      throw new CliUsageError(`cannot read ${file}`);
    })
  ).trim();
  if (!text.startsWith('{')) return text;
  const jws = (JSON.parse(text) as { jws?: unknown }).jws;
  if (typeof jws !== 'string') throw new CliUsageError(`${file} has no "jws"`);
  return jws;
}

function summary(file: string, r: StatementVerification): string {
  const p = r.payload;
  const head = p
    ? `statement ${p.id}: balance ${p.balance_id} ${p.currency} as of ${p.as_of}: available ${p.available}, pending ${p.pending}, ${p.entry_count} entries, key ${r.kid}`
    : `statement ${file}`;
  const chain = r.chain === 'not_checked' ? 'chain not checked (no --entries)' : `chain ${r.chain}`;
  return [`${r.valid ? 'VALID' : 'INVALID'}: ${head}; ${chain}`, ...r.problems.map((line) => `  ${line}`)].join('\n');
}

const modesOf = (args: CliArgs): Mode[] => {
  if (args.mode === undefined) return ['test', 'live'];
  if (args.mode === 'test' || args.mode === 'live') return [args.mode];
  throw new CliUsageError('--mode must be test or live');
};

/** Offline: needs the statement and the published keys, never the service's database or configuration. */
export const statementVerifyCommands: Record<string, RemoteCommand> = {
  'statements:verify': {
    usage: 'statements:verify FILE --jwks URL|FILE [--entries FILE] [--json]',
    async run({ args, print }) {
      const file = args.subject;
      if (typeof file !== 'string') throw new CliUsageError('give the statement FILE');
      if (typeof args.jwks !== 'string') throw new CliUsageError('--jwks URL|FILE is required');
      const jwks = (await readJson('--jwks', args.jwks)) as Parameters<typeof verifyStatement>[1];
      const entries =
        typeof args.entries === 'string' ? entriesOfExport(await readJson('--entries', args.entries)) : undefined;
      const result = await verifyStatement(await readStatement(file), jwks, entries);
      print(result, summary(file, result));
      if (!result.valid) throw new VerificationFailed('statement not verified');
    },
  },
};

export const statementCommands: Record<string, CliCommand> = {
  'statements:rotate-key': {
    usage: 'statements:rotate-key [--json]',
    async run({ app, print }) {
      const rotated = await app.get(StatementKeys).rotate();
      print(
        rotated,
        rotated.retired.length > 0
          ? `retired ${rotated.retired.join(', ')} (still published); each process signs with a new key from its next statement`
          : 'no generated key was signing; each process makes one at its first statement',
      );
    },
  },
  'ledger:verify-chain': {
    usage: 'ledger:verify-chain [--balance ID] [--mode test|live] [--json]',
    async run({ app, args, print }) {
      const balance = typeof args.balance === 'string' ? args.balance : undefined;
      const broken: Array<{ mode: Mode; balance_id: string; entry_id: string | null; problem: string }> = [];
      for (const mode of modesOf(args)) {
        const found = await app
          .get(RequestContext)
          .runInMode(mode, () => app.get(StatementsService).brokenChains(balance));
        broken.push(...found.map((f) => ({ mode, ...f })));
      }
      const lines = broken.map(
        (b) => `  ${b.mode} balance ${b.balance_id}${b.entry_id ? ` entry ${b.entry_id}` : ''}: ${b.problem}`,
      );
      print(
        { broken },
        broken.length === 0 ? 'every hash chain recomputes' : `${broken.length} problem(s)\n${lines.join('\n')}`,
      );
      if (broken.length > 0) throw new VerificationFailed(`${broken.length} problem(s)`);
    },
  },
};
