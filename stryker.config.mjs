// @ts-check
/**
 * Mutation testing of the promises users rely on (`pnpm test:mutation`; not part of `pnpm test` or .ci/run:
 * it takes tens of minutes on two cores). Run it whenever this code changes; scope a run to one area with
 * `--mutate`, e.g.
 *   pnpm test:mutation --mutate 'packages/core/src/signatures/**\/*.ts'
 * The report is written to reports/mutation/ (HTML and JSON).
 *
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  mutate: [
    // signatures: signing, verifying, the constant-time comparison, the mismatch explanations
    'packages/core/src/signatures/**/*.ts',
    // the receiver's steps: read, check, verify, claim (dedupe), hand off, answer
    'packages/core/src/receiver/**/*.ts',
    // the emulator's retry policy: response classification, retry schedule, Retry-After, the Actions policy
    'packages/emulator/src/delivery/response-policy.ts',
    'packages/emulator/src/delivery/retry-schedule.ts',
    'packages/emulator/src/actions/actions-response-*.ts',
  ],
  coverageAnalysis: 'perTest',
  // Static mutants (module-level constants) re-run every test: slow, and rarely telling.
  ignoreStatic: true,
  // A shared two-core machine.
  concurrency: 2,
  timeoutMS: 10_000,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  // Only what the tests import is copied into Stryker's sandbox.
  ignorePatterns: ['docs', 'bench', 'examples', 'reports', 'packed', 'coverage', '**/dist'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: null },
};
