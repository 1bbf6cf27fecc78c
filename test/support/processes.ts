import { createServer } from 'node:net';

/** A loopback port nobody listens on right now, for a service process a test starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * Polls `condition` every `everyMs` until it holds; fails naming `what` (with `detail()`) after a
 * generous `timeoutMs`: a guard against a hang, not a speed check.
 */
export async function until(
  what: string,
  condition: () => boolean | Promise<boolean>,
  detail: () => string = () => '',
  { timeoutMs = 60_000, everyMs = 20 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}: ${detail()}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
