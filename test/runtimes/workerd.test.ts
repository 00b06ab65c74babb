// The shared conformance table against core's `receiver.fetch` and @hookgate/hono under a real
// workerd (Cloudflare's Workers runtime, from the `workerd` npm package), over real HTTP on
// 127.0.0.1. The worker is bundled from the BUILT packages as a Workers bundler would (esbuild, the
// `workerd`/`worker`/`browser` conditions). Without nodejs_compat there is no node:crypto, so core
// takes its Web Crypto path; one more service runs with nodejs_compat, where core finds node:crypto.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../adapters/conformance.js';
import { assertBuilt } from './spawn-server.js';
import { startWorkerd, workerdBinary, type RunningWorkerd, type WorkerdService } from './workerd.js';

type Service = WorkerdService & Required<Pick<WorkerdService, 'target'>>;
const SERVICES: readonly (Service & { label: string; nodeCrypto: 'true' | 'false'; passThrough?: boolean })[] = [
  { name: 'core', target: 'core', label: "core's receiver.fetch", nodeCrypto: 'false' },
  { name: 'hono-on', target: 'hono-on', label: 'hono, handlers in `on`', nodeCrypto: 'false' },
  {
    name: 'hono-next',
    target: 'hono-next',
    label: "hono, pass-through to the route (c.get('webhook'))",
    nodeCrypto: 'false',
    passThrough: true,
  },
  // No waitUntil in the Worker: the middleware keeps acknowledge mode's background handler alive itself.
  {
    name: 'hono-ctx',
    target: 'hono-ctx',
    label: 'hono, handlers in `on`, the Worker calling no waitUntil',
    nodeCrypto: 'false',
  },
  {
    name: 'core-compat',
    target: 'core',
    label: "core's receiver.fetch with nodejs_compat",
    nodeCrypto: 'true',
    compatibilityFlags: ['nodejs_compat'],
  },
];

if (!workerdBinary()) {
  describe.skip('workerd: node_modules/workerd (and its platform package) is absent: install the workspace devDependencies', () => {
    it('is skipped', () => {});
  });
} else {
  let workerd: RunningWorkerd | undefined;
  let started: Promise<RunningWorkerd> | undefined;
  // One workerd process serves every target; the first suite to start waits for it.
  const start = () => {
    started ??= (async () => {
      assertBuilt(['core', 'hono']);
      workerd = await startWorkerd(SERVICES);
      return workerd;
    })();
    return started;
  };
  beforeAll(() => void start().catch(() => {}), 60_000);
  afterAll(async () => {
    await workerd?.close();
  });

  it("the worker bundles core's runtime-neutral build (dist/index.js), not its Node build, and no node: import", async () => {
    const { bundle } = await start();
    expect(bundle).toMatch(/^\/\/ packages\/core\/dist\/index\.js$/m);
    expect(bundle).toMatch(/^\/\/ packages\/hono\/dist\/index\.js$/m);
    expect(bundle).not.toContain('packages/core/dist/node/');
    expect(bundle).not.toMatch(/^import .* from ["']node:/m);
  });

  for (const service of SERVICES) {
    runConformance(
      `${service.label} on workerd`,
      async () => {
        const running = await start();
        // Each suite's close is a no-op: the one process is closed after the file.
        return { url: running.urls[service.name]!, close: async () => {} };
      },
      {
        passThrough: service.passThrough,
        expectInfo: {
          runtime: 'workerd',
          userAgent: 'Cloudflare-Workers',
          codegen: 'blocked',
          target: service.target,
          nodeCrypto: service.nodeCrypto,
        },
      },
    );
  }
}
