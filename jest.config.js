// Nest 12 ships as ES modules only, so Jest runs in its native ESM mode
// (node --experimental-vm-modules) and ts-jest emits ESM.
export default {
  testEnvironment: 'node',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
  // A limit against hangs, not a speed check: on a busy 2-core machine a test that starts
  // processes or an embedded database can take over a minute without anything being wrong.
  testTimeout: 120000,
  maxWorkers: 2,
  // Each test file loads the service's modules again into its own ESM VM context, and a worker's
  // heap keeps part of every earlier file's: a worker that ran ~80 files reached V8's 4 GB limit
  // (Jest "worker ran out of memory", spending seconds per garbage collection well before that).
  // A worker whose heap is above this after a file is replaced by a fresh one (about a second).
  workerIdleMemoryLimit: '1GB',
  // The longest files first (test/support/test-durations.json), so both workers end together: a
  // clean clone (CI) has no Jest cache of durations to order by.
  testSequencer: '<rootDir>/test/support/sequencer.mjs',
  // Per-file wall and CPU times when TEST_FILE_TIMES is set (scripts/ci-test-times.mjs); nothing otherwise.
  setupFilesAfterEnv: ['<rootDir>/test/support/file-times.mjs'],
};
