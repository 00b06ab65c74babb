// The shared conformance table against @hookgate/hono on Bun and on Deno: each runtime runs
// test/runtimes/hono-server.ts (the same Hono app as the Node run) with the BUILT packages, and the
// table is sent to it over real HTTP from here.
import { describe, it } from 'vitest';
import { runConformance } from '../adapters/conformance.js';
import { assertBuilt, runtimeBinary, spawnServer } from './spawn-server.js';

const SERVER = 'test/runtimes/hono-server.ts';

const RUNTIMES = [
  {
    name: 'Bun',
    bin: runtimeBinary('bun'),
    // Bun reads tsconfig "paths" (the root one maps @hookgate/* to src/): this one has none, so dist/ is used.
    args: (mode: string) => ['--tsconfig-override=test/runtimes/tsconfig.dist.json', SERVER, mode],
  },
  {
    name: 'Deno',
    bin: runtimeBinary('deno'),
    // -A: network and env; the workspace's package.json and node_modules resolve `hono` and `@hookgate/*`;
    // sloppy imports map the sources' `.js` specifiers to their `.ts` files.
    args: (mode: string) => ['run', '-A', '--unstable-sloppy-imports', '--node-modules-dir=manual', '--no-lock', SERVER, mode],
  },
] as const;

for (const runtime of RUNTIMES) {
  if (!runtime.bin) {
    describe.skip(`hono on ${runtime.name}: node_modules/.bin/${runtime.name.toLowerCase()} is absent (install the workspace's devDependencies)`, () => {
      it('is skipped', () => {});
    });
    continue;
  }
  for (const mode of ['on', 'next'] as const) {
    runConformance(
      `hono on ${runtime.name}, ${mode === 'on' ? 'handlers in `on`' : "pass-through to the route (c.get('webhook'))"}`,
      async () => {
        assertBuilt(['core', 'hono']);
        return spawnServer(runtime.bin!, runtime.args(mode));
      },
      {
        passThrough: mode === 'next',
        expectInfo: { runtime: runtime.name.toLowerCase(), resolved: /\/packages\/hono\/dist\/index\.js$/, nodeCrypto: 'true' },
      },
    );
  }
}
