// @ts-check
/** The mutated files of each area; `MUTATION_AREA=<name>` limits a run to one (and to its tests). */
const AREAS = {
  // signing, verifying, the constant-time comparison, the mismatch explanations
  signatures: ['packages/core/src/signatures/**/*.ts'],
  // the receiver's steps: read, check, verify, claim (dedupe), hand off, answer
  receiver: ['packages/core/src/receiver/steps/**/*.ts'],
  // the rest of the receiver (options, set-up, body reading, the node listener, the stores): most of its
  // mutants are covered by every receiver test, so it takes hours; run on demand, not by default
  'receiver-rest': ['packages/core/src/receiver/*.ts'],
  // the emulator's retry policy: response classification, retry schedule, Retry-After, the Actions policy
  retry: [
    'packages/emulator/src/delivery/response-policy.ts',
    'packages/emulator/src/delivery/retry-schedule.ts',
    'packages/emulator/src/actions/actions-response-*.ts',
  ],
};
const area = process.env.MUTATION_AREA;
if (area !== undefined && !(area in AREAS))
  throw new Error(`MUTATION_AREA must be one of ${Object.keys(AREAS).join(', ')} (got ${area})`);
const report = `reports/mutation/${area ?? 'all'}`;

/**
 * Mutation testing of the promises users rely on (`pnpm test:mutation`; not part of `pnpm test` or .ci/run:
 * it takes tens of minutes on two cores). Run it whenever this code changes; run one area (its files and the
 * tests that pin them, vitest.mutation.config.ts) with MUTATION_AREA, e.g.
 *   MUTATION_AREA=signatures pnpm test:mutation
 * or narrow further with `--mutate <glob>`. The report: reports/mutation/<area or all>.html and .json.
 *
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  mutate: area === undefined ? [...AREAS.signatures, ...AREAS.receiver, ...AREAS.retry] : AREAS[area],
  coverageAnalysis: 'perTest',
  // Static mutants (module-level constants) re-run every test: slow, and rarely telling.
  ignoreStatic: true,
  // A shared two-core machine.
  concurrency: 2,
  // A mutant that loops forever is cut off this long after the tests' normal time.
  timeoutMS: 5_000,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  // Only what the tests import is copied into Stryker's sandbox.
  ignorePatterns: ['.stryker-tmp*', 'docs', 'bench', 'examples', 'reports', 'packed', 'coverage', '**/dist'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `${report}.html` },
  jsonReporter: { fileName: `${report}.json` },
  // `--incremental` re-tests only the mutants whose code or covering tests changed since the last run of the
  // same area (reports/ is not committed).
  incrementalFile: `${report}-incremental.json`,
  thresholds: { high: 90, low: 80, break: null },
};
