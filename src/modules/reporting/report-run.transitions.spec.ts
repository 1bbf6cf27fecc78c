import { reportRunTransition } from './report-run.transitions.js';

describe('report run transitions', () => {
  it('moves a pending run to succeeded or failed, and nothing further', () => {
    expect(reportRunTransition('pending', 'succeed', 'r')).toBe('succeeded');
    expect(reportRunTransition('pending', 'fail', 'r')).toBe('failed');
    expect(() => reportRunTransition('succeeded', 'fail', 'r')).toThrow(/cannot fail/);
    expect(() => reportRunTransition('failed', 'succeed', 'r')).toThrow(/cannot succeed/);
  });
});
