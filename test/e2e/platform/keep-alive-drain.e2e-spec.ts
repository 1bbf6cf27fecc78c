import { type ChildProcess, spawn } from 'node:child_process';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { type Answer, freePort, sendOn, until } from '../../support/processes.js';

const MAIN = join(process.cwd(), 'dist/src/main.js');
const GRACE_MS = 30_000;
/** Long enough that the clients below see the listener open while draining on any machine. */
const LISTEN_MS = 10_000;
const BUSY_CLIENTS = 12;
const QUIET_CLIENTS = 4;

/**
 * A request that got no answer on a connection the service had open. Not one: a refused
 * connection (the listener is closed), and a new connection reset without an answer, which is one
 * the kernel had queued but the service not yet accepted when the listener closed (Linux resets
 * its accept queue then); neither ever reached the service.
 */
function unanswered(err: NodeJS.ErrnoException & { reusedSocket?: boolean }): boolean {
  if (err.code === 'ECONNREFUSED') return false;
  return err.code !== 'ECONNRESET' || err.reusedSocket === true;
}

/**
 * The compiled service as a process (embedded in-memory database, no jobs), with keep-alive
 * clients that never stop on their own: every request that reaches an open connection during the
 * drain must be answered, with `Connection: close`, and that connection must not be used again.
 */
describe('draining keep-alive connections on SIGTERM', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('answers every request on an open connection (0 closed unanswered), closes each after its answer, and answers /readyz 503 until the listener closes', async () => {
    const port = await freePort();
    const proc = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        DATABASE_URL: '',
        DATA_DIR: 'memory://',
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'info',
        LOG_FILE: '',
        RUN_JOBS: 'false',
        SHUTDOWN_GRACE_MS: String(GRACE_MS),
        SHUTDOWN_LISTEN_MS: String(LISTEN_MS),
      },
    });
    child = proc;
    let output = '';
    proc.stdout.setEncoding('utf8');
    proc.stderr.setEncoding('utf8');
    let draining = false;
    proc.stdout.on('data', (chunk: string) => {
      output += chunk;
      draining ||= output.includes('SIGTERM: draining');
    });
    proc.stderr.on('data', (chunk: string) => (output += chunk));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      proc.once('exit', (code, signal) => resolve({ code, signal })),
    );
    let gone = false;
    void exited.then(() => (gone = true));
    const tally = {
      before: 0,
      /** Answers to requests sent once the service had logged that it drains (so it was draining when they came). */
      during: [] as Array<Pick<Answer, 'status' | 'reusedSocket'> & { close: boolean }>,
      refused: 0,
      unanswered: [] as string[],
      reusedAfterClose: 0,
    };
    const seen = () => JSON.stringify({ ...tally, during: tally.during.length, output: output.slice(-2000) });
    await until('the service to listen', () => output.includes('wallet service listening') || gone, seen, {
      timeoutMs: 300_000,
    });
    expect(gone).toBe(false);

    let stop = false;
    const record = (answer: Answer, sentDraining: boolean, closedBefore: boolean) => {
      const close = answer.headers.connection === 'close';
      if (!sentDraining) tally.before += 1;
      else tally.during.push({ status: answer.status, reusedSocket: answer.reusedSocket, close });
      if (closedBefore && answer.reusedSocket) tally.reusedAfterClose += 1;
      return close;
    };
    const failed = (err: NodeJS.ErrnoException & { reusedSocket?: boolean }, where: string) => {
      if (unanswered(err)) tally.unanswered.push(`${where}: ${err.code ?? err.message} (reused: ${err.reusedSocket})`);
      else tally.refused += 1;
    };

    // Busy clients: one kept-alive connection each, request after request, until the process is gone.
    const busy = Array.from({ length: BUSY_CLIENTS }, async (_, i) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      let closed = false;
      while (!stop) {
        const sentDraining = draining;
        try {
          closed = record(await sendOn(port, agent, 'GET', '/readyz'), sentDraining, closed);
        } catch (err) {
          failed(err as NodeJS.ErrnoException, `busy client ${i}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
      agent.destroy();
    });
    // Quiet clients: one answer before the signal, then their idle kept-alive connection is used once more after it.
    const quietAgents = Array.from({ length: QUIET_CLIENTS }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
    for (const agent of quietAgents) record(await sendOn(port, agent, 'GET', '/healthz'), false, false);
    await until('the busy clients to get answers', () => tally.before >= BUSY_CLIENTS * 3, seen);

    proc.kill('SIGTERM');
    await until('the drain to start', () => draining, seen);
    const quiet = await Promise.all(
      quietAgents.map((agent, i) =>
        sendOn(port, agent, 'GET', '/healthz').then(
          (answer) => answer,
          (err: NodeJS.ErrnoException) => failed(err, `quiet client ${i}`),
        ),
      ),
    );
    // A new connection while the listener is open: /readyz answers 503, not a refusal.
    const fresh = new Agent({ keepAlive: false });
    const readyz = await sendOn(port, fresh, 'GET', '/readyz').catch((err: Error) => err);
    fresh.destroy();

    let exit: Awaited<typeof exited>;
    try {
      await until('the listener to close', () => tally.refused > 0 || gone, seen, { timeoutMs: GRACE_MS * 2 });
      exit = await exited;
    } finally {
      stop = true;
      await Promise.all(busy);
      for (const agent of quietAgents) agent.destroy();
    }

    expect(tally.unanswered).toEqual([]);
    expect(tally.reusedAfterClose).toBe(0);
    expect(readyz).toMatchObject({ status: 503 });
    expect(JSON.parse((readyz as Answer).body)).toMatchObject({ object: 'error', code: 'E5001' });
    for (const answer of quiet) {
      expect(answer).toMatchObject({ status: 200, reusedSocket: true, headers: { connection: 'close' } });
    }
    // Every answer during the drain told its connection to close, and /readyz said 503 on the
    // connections opened while the listener was still open (the quiet clients above show the
    // kept-alive connections the drain found open).
    expect(tally.during.length).toBeGreaterThanOrEqual(BUSY_CLIENTS);
    expect(tally.during.filter((a) => !a.close)).toEqual([]);
    expect(tally.during.filter((a) => a.status !== 503)).toEqual([]);
    expect(tally.during.some((a) => !a.reusedSocket)).toBe(true);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(output).toMatch(/drained in \d+ ms: \d+ in-flight requests completed, \d+ connections closed/);
    expect(output).not.toMatch(/cut at the grace period/);
  }, 600_000);
});
