import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** The compiled module (`npm test` compiles the tree first), loaded by a plain Node process. */
const MODULE = join(process.cwd(), 'dist/src/common/runtime/gc-tuning.js');

/**
 * Objects from one literal, all kept: every scavenge finds them alive, which is what makes V8
 * pretenure a site. `--trace-pretenuring-statistics` prints each site's decision.
 */
const RETAINING_SCRIPT = `
  const kept = [];
  function make(i) { return { id: i, pair: [i, i + 1] }; }
  for (let i = 0; i < 400000; i++) kept.push(make(i));
  process.stdout.write('kept ' + kept.length + '\\n');
`;

async function decisions(setUp: string): Promise<{ stdout: string; sites: number }> {
  const script = `${setUp}\n${RETAINING_SCRIPT}`;
  const { stdout } = await run(process.execPath, [
    '--trace-pretenuring-statistics',
    '--input-type=module',
    '-e',
    script,
  ]);
  return { stdout, sites: stdout.split('\n').filter((line) => /AllocationSite\(.*=>/.test(line)).length };
}

describe('disableAllocationSitePretenuring', () => {
  it('V8 pretenures a literal whose objects survive scavenges (the control)', async () => {
    const { stdout, sites } = await decisions('');
    expect(stdout).toContain('kept 400000');
    expect(stdout).toMatch(/AllocationSite\(.*=> (maybe )?tenure/);
    expect(sites).toBeGreaterThan(0);
  });

  it('leaves V8 no pretenuring decision to make once the service has called it', async () => {
    const { stdout, sites } = await decisions(
      `const { disableAllocationSitePretenuring } = await import(${JSON.stringify(MODULE)});\ndisableAllocationSitePretenuring();`,
    );
    expect(stdout).toContain('kept 400000');
    expect(sites).toBe(0);
  });
});
