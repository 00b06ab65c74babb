import { defineConfig } from 'vitest/config';
import { SOURCE_ALIASES } from './test/support/source-aliases.js';

/** The receiver's tests: createReceiver over real HTTP, the Actions batches, pass-through routes. */
const RECEIVER_TESTS = [
  'packages/core/test/receiver-*.test.ts',
  'packages/core/test/node-listener*.test.ts',
  'packages/core/test/idempotency-store.test.ts',
  // Webhooks (Actions) batches and enqueue mode's answers, over real HTTP
  'packages/core/test/actions-attack.test.ts',
  'packages/core/test/actions-batch-edges.test.ts',
  'packages/core/test/actions-receiver.test.ts',
  'packages/core/test/enqueue-answer-attack.test.ts',
  // pass-through routes and the tracking plan's onViolation, over real Express and Hono servers
  'packages/express/test/tracking-plan.test.ts',
  'packages/hono/test/tracking-plan.test.ts',
];

/** The tests that pin each mutated area (see stryker.config.mjs). */
const AREAS: Record<string, string[]> = {
  // sign, verify, constantTimeEqual, explainMismatch
  signatures: [
    'packages/core/test/signatures*.test.ts',
    'packages/core/test/explain-mismatch.test.ts',
    'packages/core/test/receiver-debug.test.ts',
  ],
  // the receiver's steps, over createReceiver and real HTTP
  receiver: RECEIVER_TESTS,
  // the rest of the receiver: the same tests
  'receiver-rest': RECEIVER_TESTS,
  // the emulator's retry policy: response classification, retry schedule, Retry-After
  retry: [
    'packages/emulator/test/delivery/retry-*.test.ts',
    'packages/emulator/test/delivery/delivery.test.ts',
    'packages/emulator/test/delivery/no-retry-after-success.test.ts',
    'packages/emulator/test/actions/actions-emulator.test.ts',
  ],
};

const area = process.env.MUTATION_AREA;
if (area !== undefined && !(area in AREAS))
  throw new Error(`MUTATION_AREA must be one of ${Object.keys(AREAS).join(', ')} (got ${area})`);

/**
 * The tests `pnpm test:mutation` (StrykerJS, stryker.config.mjs) runs against each mutant: only the files that
 * pin the mutated code, those of one area when MUTATION_AREA is set, so one mutant costs seconds.
 * Not part of `pnpm test`: the quick and heavy suites are in vitest.config.ts.
 */
export default defineConfig({
  resolve: { alias: SOURCE_ALIASES },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    include: area === undefined ? Object.values(AREAS).flat() : (AREAS[area] ?? []),
    // The tests that start other runtimes do not run under Stryker's worker threads.
    exclude: ['packages/core/test/receiver-runtimes.test.ts', '**/node_modules/**'],
  },
});
