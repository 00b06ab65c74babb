import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { SOURCE_ALIASES } from './test/support/source-aliases.js';
import SummaryReporter from './test/support/summary-reporter.js';

const ALL = ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'];

/** The tests that start other runtimes (Bun, Deno, workerd, other Node versions), a browser, a framework's production build or the docs build, or soak for long. */
const HEAVY = [
  'test/runtimes/**/*.test.ts',
  'test/docs-site.test.ts',
  'test/packaging/install-tarballs.test.ts',
  // a fresh npm project with an empty npm cache, from the tarballs, running every bin and loading every export
  'test/packaging/tarball-commands.test.ts',
  // a new npm project per guide family, from the tarballs, running each guide's snippet
  'test/packaging/guide-snippets.test.ts',
  'test/packaging/prepack.test.ts',
  // a real chromium
  'packages/*/test/**/*browser*.test.ts',
  'packages/emulator/test/intake/big-numbers.test.ts',
  'packages/emulator/test/intake/local-server-origin.test.ts',
  'packages/emulator/test/delivery/soak.test.ts',
  // eleven misbehaving endpoints, each its own process (11 s), some streaming endless answers
  'packages/emulator/test/delivery/hostile-endpoints-attack.test.ts',
  // serve and ten endpoint processes, then an intake p99 bar that CPU contention breaks
  'packages/emulator/test/cli/serve-endless-answers.test.ts',
  // 27 hostile plans × 2 builds, each its own process with a heap limit (2.5 min on 2 cores)
  'packages/core/test/tracking-plan-bounds.test.ts',
  // separate processes on a real Redis, 5,000 messages
  'packages/bullmq/test/durable-handoff.test.ts',
  // ten concurrent 50 MB uploads per set-up: each must be drained within 2 s, which CPU contention breaks
  'test/adapters/oversize.attack.test.ts',
  // three 5 MB uploads from another process, read and dropped after the 413 within the server's 2 s grace: at a
  // load of 20 the server's own reading, slowed by CPU contention, outlasts it (EPIPE)
  'packages/emulator/test/listen/local-server-listen-proxy.test.ts',
  // attacks that wait out the sender's deadline or a server's 10 s time limits, many times over
  'test/adapters/deadline.attack.test.ts',
  'test/adapters/oversize-keepalive-attack.test.ts',
  'test/adapters/example-time-limits-attack.test.ts',
  'test/adapters/request-timeout-attack.test.ts',
  'examples/next-receiver/**/*.test.ts',
];

// Tests run against the TypeScript sources; the cross-runtime tests (Bun, Deno)
// and the build checks use the built `dist/` output instead.
export default defineConfig({
  resolve: { alias: SOURCE_ALIASES },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most tests of the quick suite wait on sockets, timers and child processes, not the CPU: four at
    // once even on two cores (vitest's default there is one), more where there are more cores. The
    // heavy suite is CPU-bound and timing-tight (browsers, runtimes, builds, 500 MB of uploads):
    // `pnpm test:heavy` and `.ci/run` run it one file at a time (--maxWorkers=1).
    maxWorkers: Math.max(4, availableParallelism()),
    reporters: ['default', new SummaryReporter()],
    // Two suites: `pnpm test` runs the quick one (the README's test command, a few minutes);
    // `pnpm test:heavy` the one that starts other runtimes, a browser, framework builds and soaks.
    // `.ci/run` runs both. `vitest run` alone runs both too.
    projects: [
      {
        extends: true,
        test: {
          name: 'quick',
          include: ALL,
          exclude: [...HEAVY, ...configDefaults.exclude],
          // A worker process runs file after file and keeps the modules it loaded (vitest's default starts a
          // fresh one per file): the suite's import time fell from 96 s to 21 s (2 cores, clean clone). So a
          // test file puts back what it changes in the process (environment variables, timers, writes to
          // stdout) and closes what it opens.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'heavy', include: HEAVY } },
    ],
  },
});
