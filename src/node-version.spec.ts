import { minimumFromEngines, nearestManifest, nodeVersionProblem } from './node-version.js';

describe('the Node version check', () => {
  it('reads the minimum from the engines forms package.json uses', () => {
    expect(minimumFromEngines('>=24')).toEqual([24, 0, 0]);
    expect(minimumFromEngines('>= 24.21')).toEqual([24, 21, 0]);
    expect(minimumFromEngines('>=24.21.3')).toEqual([24, 21, 3]);
    expect(() => minimumFromEngines('^24')).toThrow('engines.node must be');
  });

  it('accepts the minimum and anything newer', () => {
    expect(nodeVersionProblem('>=24', 'v24.0.0')).toBeNull();
    expect(nodeVersionProblem('>=24', 'v24.21.0')).toBeNull();
    expect(nodeVersionProblem('>=24.21', 'v25.0.0')).toBeNull();
  });

  it('refuses an older Node in one line naming the needed and the found version and a command', () => {
    const problem = nodeVersionProblem('>=24', 'v20.20.2')!;
    expect(problem.split('\n')).toHaveLength(1);
    expect(problem).toContain('needs Node >=24');
    expect(problem).toContain('this is Node v20.20.2');
    expect(problem).toContain('npx -y node@24');
    expect(nodeVersionProblem('>=24.21', 'v24.18.0')).toContain('needs Node >=24.21');
  });

  it('finds the nearest package.json above the compiled file, however deep the build tree is', () => {
    const present = new Set(['/app/package.json']);
    const exists = (path: string) => present.has(path);
    expect(nearestManifest('/app/dist/src', exists)).toBe('/app/package.json');
    expect(nearestManifest('/app/dist/bench-build/src', exists)).toBe('/app/package.json');
    expect(() => nearestManifest('/elsewhere/dist/src', exists)).toThrow('no package.json at or above');
  });
});
