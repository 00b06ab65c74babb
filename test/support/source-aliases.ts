// The `@hookgate/*` imports resolved to the packages' TypeScript sources, for the test configs (the quick and
// heavy suites in vitest.config.ts, the mutation runs in vitest.mutation.config.ts): one list, so an entry
// point added to a package is added for every run at once.
import { fileURLToPath } from 'node:url';

const source = (name: string, entry = 'index') =>
  fileURLToPath(new URL(`../../packages/${name}/src/${entry}.ts`, import.meta.url));

/**
 * Each `@hookgate/*` import and the source file it stands for; the subpaths come first, as an alias also
 * matches the imports that start with it and a `/`.
 *
 * @example
 * defineConfig({ resolve: { alias: SOURCE_ALIASES } });
 */
export const SOURCE_ALIASES: Record<string, string> = {
  '@hookgate/core/adapter': source('core', 'adapter'),
  '@hookgate/core/calls': source('core', 'calls'),
  '@hookgate/core/internal': source('core', 'internal'),
  '@hookgate/core': source('core'),
  '@hookgate/express': source('express'),
  '@hookgate/fastify': source('fastify'),
  '@hookgate/hono': source('hono'),
  '@hookgate/emulator': source('emulator'),
  '@hookgate/client': source('client'),
  '@hookgate/redis': source('redis'),
  '@hookgate/bullmq': source('bullmq'),
  '@hookgate/otel': source('otel'),
  '@hookgate/plans/internal': source('plans', 'internal'),
  '@hookgate/plans': source('plans'),
};
