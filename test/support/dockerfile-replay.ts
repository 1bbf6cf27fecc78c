import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, matchesGlob, posix, relative } from 'node:path';
import { type Instruction, parseAssignments, parseCopy, parseDockerfile, substitute } from './dockerfile.js';

/**
 * Replays a Dockerfile without a container engine (test/e2e/platform/dockerfile-replay): each stage
 * gets its own empty root directory, container paths are rewritten into it, `COPY` takes files from
 * the build context (less .dockerignore) or from an earlier stage's root, `RUN` runs with `sh -c`
 * in the rewritten WORKDIR with the stage's ENV and ARGs, on this machine's Node, which must be the
 * version the `FROM node:<version>` tag names. Nothing of the working tree is used except what COPY
 * brings in.
 *
 * What cannot run here is handled explicitly, segment by segment of a RUN's `&&` chain:
 * - OS_COMMANDS change the operating system of the image (users, packages): they would change this
 *   machine, so the replay only checks that the command exists here and does not run it.
 * - SHARED_STATE commands would change something this machine shares with every other build.
 * Any other command runs. A new OS-level command in the Dockerfile therefore either runs (and fails
 * loudly if it cannot) or must be added below with its reason.
 */
export const OS_COMMANDS: Record<string, string> = {
  groupadd: 'creates the service group (gid 10001) in the image; the replay starts the CMD with that gid directly',
  useradd: 'creates the service user (uid 10001) in the image; the replay starts the CMD with that uid directly',
};
export const SHARED_STATE: Record<string, string> = {
  'npm cache clean': "only shrinks the layer; here it would empty this machine's npm cache, which `npm ci` reuses",
};

export interface ReplayedStage {
  name: string | null;
  root: string;
  env: Record<string, string>;
  workdir: string;
  user: string | null;
  cmd: string[] | null;
}

export interface Replay {
  stages: ReplayedStage[];
  /** Every segment not run, with its reason, in Dockerfile order. */
  notRun: string[];
  /** Whether the first RUN of a stage was restored from the layer cache, per stage. */
  cachedLayers: string[];
}

export interface ReplayOptions {
  context: string;
  dockerfile?: string;
  /** An empty directory for the stage roots. */
  workRoot: string;
  /** Layer cache for a stage's first RUN, keyed like Docker's: instructions so far and the bytes they copied. */
  cacheDir?: string;
  log?: (line: string) => void;
}

/** `.dockerignore` patterns: a path is excluded when it or one of its parent folders matches. */
function ignored(path: string, patterns: string[]): boolean {
  const parts = path.split('/');
  return parts.some((_, i) => patterns.some((p) => matchesGlob(parts.slice(0, i + 1).join('/'), p)));
}

function copyFromContext(
  context: string,
  source: string,
  target: string,
  patterns: string[],
  hash: (s: string) => void,
) {
  const walk = (rel: string, to: string) => {
    if (ignored(rel, patterns)) return;
    const from = join(context, rel);
    if (statSync(from).isDirectory()) {
      mkdirSync(to, { recursive: true });
      for (const entry of readdirSync(from).sort()) walk(posix.join(rel, entry), join(to, entry));
    } else {
      mkdirSync(dirname(to), { recursive: true });
      cpSync(from, to);
      hash(`${rel}\n`);
      hash(readFileSync(from).toString('base64'));
    }
  };
  const rel = posix.normalize(source).replace(/^\.?\/+/, '') || '.';
  if (!existsSync(join(context, rel)) || (rel !== '.' && ignored(rel, patterns))) {
    throw new Error(`COPY ${source}: not in the build context (missing, or excluded by .dockerignore)`);
  }
  walk(rel, target);
}

export function replayDockerfile(options: ReplayOptions): Replay {
  const { context, workRoot } = options;
  const log = options.log ?? (() => undefined);
  const stages = parseDockerfile(readFileSync(options.dockerfile ?? join(context, 'Dockerfile'), 'utf8'));
  const dockerignore = join(context, '.dockerignore');
  const patterns = existsSync(dockerignore)
    ? readFileSync(dockerignore, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'))
    : [];
  const done: ReplayedStage[] = [];
  const notRun: string[] = [];
  const cachedLayers: string[] = [];

  stages.forEach((stage, index) => {
    const nodeVersion = /^node:(\d+\.\d+\.\d+)(?:-[^@]*)?(?:@sha256:[0-9a-f]{64})?$/.exec(stage.from)?.[1];
    if (!nodeVersion) throw new Error(`FROM ${stage.from}: the replay runs only node:<x.y.z>-… images`);
    if (`v${nodeVersion}` !== process.version) {
      throw new Error(`FROM ${stage.from} names Node ${nodeVersion}, but the replay runs on ${process.version}`);
    }
    const root = join(workRoot, `stage-${index}${stage.name ? `-${stage.name}` : ''}`);
    mkdirSync(join(root, 'root'), { recursive: true });
    const inRoot = (path: string) => join(root, path);
    const current: ReplayedStage = { name: stage.name, root, env: {}, workdir: '/', user: null, cmd: null };
    const args: Record<string, string> = {};
    const key = createHash('sha256').update(`${process.version}\n${stage.from}\n`);
    let cacheable = Boolean(options.cacheDir);
    const vars = () => ({ ...args, ...current.env });
    const resolveIn = (path: string) => (isAbsolute(path) ? path : posix.join(current.workdir, path));

    for (const ins of stage.instructions) {
      key.update(`${ins.op} ${ins.args}\n`);
      log(`stage ${index} line ${ins.line}: ${ins.op} ${ins.args}`);
      if (ins.op === 'ARG') for (const [k, v] of parseAssignments(ins.args)) args[k] = substitute(v, vars());
      else if (ins.op === 'ENV')
        for (const [k, v] of parseAssignments(ins.args)) current.env[k] = substitute(v, vars());
      else if (ins.op === 'WORKDIR') {
        current.workdir = resolveIn(substitute(ins.args.trim(), vars()));
        mkdirSync(inRoot(current.workdir), { recursive: true });
      } else if (ins.op === 'USER') current.user = substitute(ins.args.trim(), vars());
      else if (ins.op === 'EXPOSE') continue;
      else if (ins.op === 'CMD') current.cmd = JSON.parse(ins.args) as string[];
      else if (ins.op === 'COPY')
        copy(
          ins,
          current,
          done,
          context,
          patterns,
          (s) => key.update(s),
          resolveIn,
          () => (cacheable = false),
        );
      else {
        const script = runnable(ins, notRun);
        const cacheEntry = options.cacheDir && cacheable ? join(options.cacheDir, key.copy().digest('hex')) : null;
        cacheable = false;
        if (cacheEntry && existsSync(cacheEntry)) {
          restoreLayer(cacheEntry, root);
          cachedLayers.push(`stage ${index} line ${ins.line}`);
          continue;
        }
        const result = spawnSync('sh', ['-c', rewritePaths(script, root)], {
          cwd: inRoot(current.workdir),
          stdio: ['ignore', 'pipe', 'pipe'],
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
          env: {
            PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
            HOME: inRoot('root'),
            ...machineNetwork(),
            ...args,
            ...rewriteEnv(current.env, root),
          },
        });
        if (result.status !== 0) {
          throw new Error(
            `Dockerfile line ${ins.line}: RUN ${script} exited ${result.status ?? result.signal}\n${result.stdout}\n${result.stderr}`,
          );
        }
        if (cacheEntry) saveLayer(root, cacheEntry);
      }
    }
    done.push(current);
  });
  return { stages: done, notRun, cachedLayers };
}

function copy(
  ins: Instruction,
  stage: ReplayedStage,
  done: ReplayedStage[],
  context: string,
  patterns: string[],
  hash: (s: string) => void,
  resolveIn: (path: string) => string,
  notCacheable: () => void,
) {
  const { flags, sources, dest } = parseCopy(ins.args);
  const destPath = resolveIn(dest);
  const intoDir = dest.endsWith('/') || sources.length > 1;
  for (const source of sources) {
    if (flags.from) {
      notCacheable();
      const from = done.find((s, i) => s.name === flags.from || String(i) === flags.from);
      if (!from) throw new Error(`Dockerfile line ${ins.line}: COPY --from=${flags.from}: no such earlier stage`);
      const src = join(from.root, isAbsolute(source) ? source : posix.join(from.workdir, source));
      if (!existsSync(src))
        throw new Error(`Dockerfile line ${ins.line}: COPY --from=${flags.from} ${source}: not in that stage`);
      const target = join(stage.root, intoDir ? posix.join(destPath, posix.basename(source)) : destPath);
      mkdirSync(dirname(target), { recursive: true });
      // Hard links: the runtime stage only reads what it takes from the build stage (as a layer would).
      const cp = spawnSync('cp', ['-al', src, target], { encoding: 'utf8' });
      if (cp.status !== 0) throw new Error(`COPY --from: cp -al failed: ${cp.stderr}`);
    } else {
      const isDir = existsSync(join(context, source)) && statSync(join(context, source)).isDirectory();
      const target = isDir || !intoDir ? destPath : posix.join(destPath, posix.basename(source));
      copyFromContext(context, source, join(stage.root, target), patterns, hash);
    }
  }
}

/** The RUN's `&&` chain less the segments that cannot or must not run here (recorded in `notRun`). */
function runnable(ins: Instruction, notRun: string[]): string {
  const kept: string[] = [];
  for (const segment of ins.args.split('&&').map((s) => s.trim())) {
    const command = segment.split(/\s+/)[0];
    const shared = Object.keys(SHARED_STATE).find((prefix) => segment.startsWith(prefix));
    if (OS_COMMANDS[command]) {
      const present = spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
      if (!present) throw new Error(`Dockerfile line ${ins.line}: ${command} is not on this machine either`);
      notRun.push(`line ${ins.line}: ${segment} (present here, not run: ${OS_COMMANDS[command]})`);
    } else if (shared) notRun.push(`line ${ins.line}: ${segment} (not run: ${SHARED_STATE[shared]})`);
    else kept.push(segment);
  }
  return kept.length ? kept.join(' && ') : 'true';
}

/**
 * What a build host lends a build: its network settings (proxy, CA certificates) and, like a
 * BuildKit cache mount, its npm configuration and registry cache, so `npm ci` fetches what the
 * cache lacks and takes the rest from it. Nothing else of this machine's environment reaches a RUN.
 */
function machineNetwork(): Record<string, string> {
  const names = ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY'];
  const lent: Record<string, string> = {
    npm_config_cache: process.env.npm_config_cache || join(homedir(), '.npm'),
    npm_config_userconfig: process.env.npm_config_userconfig || join(homedir(), '.npmrc'),
    npm_config_update_notifier: 'false',
  };
  for (const name of [...names, ...names.map((n) => n.toLowerCase())]) {
    if (process.env[name]) lent[name] = process.env[name];
  }
  return lent;
}

/** Absolute container paths in a RUN (whose first folder exists in the stage) point into the stage root. */
function rewritePaths(script: string, root: string): string {
  return script.replace(/(^|\s)(\/[^\s/]+)(\S*)/g, (all, pre: string, top: string, rest: string) =>
    existsSync(join(root, top)) ? `${pre}${join(root, top)}${rest}` : all,
  );
}

/** Absolute container paths in ENV values point into the stage root. */
export function rewriteEnv(env: Record<string, string>, root: string): Record<string, string> {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.startsWith('/') ? join(root, v) : v]));
}

function saveLayer(root: string, entry: string) {
  const partial = `${entry}.${process.pid}.partial`;
  mkdirSync(dirname(entry), { recursive: true });
  const cp = spawnSync('cp', ['-al', root, partial]);
  if (cp.status === 0 && !existsSync(entry)) renameSync(partial, entry);
  else rmSync(partial, { recursive: true, force: true });
}

/**
 * Hard links again, except for the files npm rewrites in place (package manifests and the hidden
 * lock file), which get their own copy so that a later `npm prune` cannot change the cached layer.
 */
function restoreLayer(entry: string, root: string) {
  // The cached root already holds what the COPY lines before brought in (they are part of the key).
  rmSync(root, { recursive: true, force: true });
  const cp = spawnSync('cp', ['-al', entry, root], { encoding: 'utf8' });
  if (cp.status !== 0) throw new Error(`layer cache: ${cp.stderr}`);
  const own = (path: string) => {
    if (!existsSync(path) || statSync(path).isDirectory()) return;
    rmSync(path);
    cpSync(join(entry, relative(root, path)), path);
  };
  const walkTop = (dir: string, depth: number) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (depth < 2 && (name === 'node_modules' || depth === 0)) walkTop(path, depth + 1);
      } else own(path);
    }
  };
  walkTop(root, 0);
}
