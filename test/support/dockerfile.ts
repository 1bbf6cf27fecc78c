/**
 * A Dockerfile as data, for the replay test (test/e2e/platform/dockerfile-replay): the instructions
 * of each stage after line continuations, comments and `${ARG}` substitution. Only the instructions
 * this project's Dockerfile may use are accepted; anything else is an error naming it, so a new
 * instruction cannot slip past the replay unreplayed.
 */
export interface Instruction {
  line: number;
  op: 'WORKDIR' | 'COPY' | 'RUN' | 'ENV' | 'ARG' | 'USER' | 'EXPOSE' | 'CMD';
  /** The text after the keyword, continuations joined. */
  args: string;
}

export interface Stage {
  name: string | null;
  /** The image after substitution, e.g. `node:24.21.0-bookworm-slim` or an earlier stage's name. */
  from: string;
  instructions: Instruction[];
}

const STAGE_OPS = new Set(['WORKDIR', 'COPY', 'RUN', 'ENV', 'ARG', 'USER', 'EXPOSE', 'CMD']);

/** `${NAME}` and `$NAME` from `vars`; unknown names become empty, as Docker does. */
export function substitute(text: string, vars: Record<string, string>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_, a, b) => vars[a ?? b] ?? '');
}

/** `K=V K2="V 2"` (or the legacy `K V`) into pairs. */
export function parseAssignments(text: string): [string, string][] {
  const trimmed = text.trim();
  if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(trimmed)) {
    const [key, ...rest] = trimmed.split(/\s+/);
    return [[key, rest.join(' ')]];
  }
  const pairs: [string, string][] = [];
  const re = /([A-Za-z_][A-Za-z0-9_]*)=("((?:[^"\\]|\\.)*)"|'([^']*)'|(\S*))/g;
  for (const m of trimmed.matchAll(re)) pairs.push([m[1], m[3] ?? m[4] ?? m[5] ?? '']);
  return pairs;
}

/** Logical lines: comments and blank lines dropped, `\` continuations joined (comments inside too). */
function logicalLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let current: { line: number; text: string } | null = null;
  text.split('\n').forEach((raw, index) => {
    const trimmed = raw.trim();
    if (trimmed.startsWith('#') || (trimmed === '' && current === null)) return;
    if (trimmed === '') return;
    const continues = trimmed.endsWith('\\');
    const body = continues ? trimmed.slice(0, -1).trim() : trimmed;
    if (current) current.text += ` ${body}`;
    else current = { line: index + 1, text: body };
    if (!continues) {
      out.push(current);
      current = null;
    }
  });
  if (current) out.push(current);
  return out;
}

export function parseDockerfile(text: string): Stage[] {
  const globalArgs: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const { line, text: logical } of logicalLines(text)) {
    const match = /^(\S+)\s*(.*)$/.exec(logical)!;
    const op = match[1].toUpperCase();
    const args = match[2];
    if (op === 'FROM') {
      const from = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(substitute(args, globalArgs));
      if (!from) throw new Error(`Dockerfile line ${line}: cannot read FROM ${args}`);
      stages.push({ from: from[1], name: from[2] ?? null, instructions: [] });
    } else if (stages.length === 0) {
      if (op !== 'ARG') throw new Error(`Dockerfile line ${line}: ${op} before the first FROM`);
      for (const [key, value] of parseAssignments(args)) globalArgs[key] = value;
    } else if (STAGE_OPS.has(op)) {
      stages[stages.length - 1].instructions.push({ line, op: op as Instruction['op'], args });
    } else {
      throw new Error(
        `Dockerfile line ${line}: the replay does not know ${op}; teach test/support/dockerfile-replay.ts`,
      );
    }
  }
  return stages;
}

/** `--from=build --chown=…` flags and the JSON or space-separated operands of a COPY. */
export function parseCopy(args: string): { flags: Record<string, string>; sources: string[]; dest: string } {
  const flags: Record<string, string> = {};
  let rest = args.trim();
  for (let m = /^--([a-z-]+)=(\S+)\s+/.exec(rest); m; m = /^--([a-z-]+)=(\S+)\s+/.exec(rest)) {
    flags[m[1]] = m[2];
    rest = rest.slice(m[0].length);
  }
  const operands = rest.startsWith('[') ? (JSON.parse(rest) as string[]) : rest.split(/\s+/);
  if (operands.length < 2) throw new Error(`COPY needs a source and a destination: ${args}`);
  return { flags, sources: operands.slice(0, -1), dest: operands[operands.length - 1] };
}
