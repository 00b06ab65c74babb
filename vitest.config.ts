import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import SummaryReporter from './test/support/summary-reporter.js';

const pkg = (name: string) => fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url));

// Tests run against the TypeScript sources; the cross-runtime tests (Bun, Deno)
// and the build checks use the built `dist/` output instead.
export default defineConfig({
  resolve: {
    alias: {
      '@hookgate/core': pkg('core'),
      '@hookgate/express': pkg('express'),
      '@hookgate/fastify': pkg('fastify'),
      '@hookgate/hono': pkg('hono'),
      '@hookgate/emulator': pkg('emulator'),
      '@hookgate/client': pkg('client'),
      '@hookgate/redis': pkg('redis'),
      '@hookgate/bullmq': pkg('bullmq'),
    },
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default', new SummaryReporter()],
  },
});
