import type { EntityManager } from 'typeorm';
import { claimThenApply, readBackAndApply, type OutcomeResult } from './provider-outcomes.js';

const manager = {} as EntityManager;

describe('claimThenApply', () => {
  it('applies when there is no notice to claim', async () => {
    expect(await claimThenApply(manager, undefined, async () => 'applied')).toBe('applied');
  });

  it('applies a notice claimed for the first time, in the same transaction', async () => {
    const seen: EntityManager[] = [];
    const claim = async (m: EntityManager) => (seen.push(m), true);
    expect(await claimThenApply(manager, claim, async () => 'applied')).toBe('applied');
    expect(seen).toEqual([manager]);
  });

  it('answers duplicate without applying a notice claimed before', async () => {
    let applied = false;
    const result = await claimThenApply(
      manager,
      async () => false,
      async () => ((applied = true), 'applied'),
    );
    expect({ result, applied }).toEqual({ result: 'duplicate', applied: false });
  });
});

describe('readBackAndApply', () => {
  it('applies only final answers, skips records the provider could not be asked about, and counts', async () => {
    const answers: Record<string, { status: string } | null> = {
      a: { status: 'succeeded' },
      b: { status: 'pending' },
      c: null,
      d: { status: 'failed' },
      e: { status: 'succeeded' },
    };
    const appliedTo: string[] = [];
    const out = await readBackAndApply(
      Object.keys(answers),
      async (id) => answers[id],
      async (id): Promise<OutcomeResult> => (appliedTo.push(id), id === 'e' ? 'unchanged' : 'applied'),
    );
    expect(appliedTo).toEqual(['a', 'd', 'e']);
    expect(out).toEqual({ read: 5, applied: 2 });
  });
});
