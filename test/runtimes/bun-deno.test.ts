// The shared conformance table on Bun and on Deno, against core's `receiver.fetch` served directly
// (`Bun.serve`, `Deno.serve`) and against @hookgate/hono (both mounting styles): each runtime runs
// test/runtimes/runtime-server.ts (the same handlers as the Node runs) with the BUILT packages, and
// the table is sent to it over real HTTP from here.
import { describe, it } from 'vitest';
import { runConformance } from '../adapters/conformance.js';
import { assertBuilt, runtimeBinary, spawnServer } from './spawn-server.js';

const SERVER = 'test/runtimes/runtime-server.ts';

const RUNTIMES = [
  {
    name: 'Bun',
    bin: runtimeBinary('bun'),
    // Bun reads tsconfig "paths" (the root one maps @hookgate/* to src/): this one has none, so dist/ is used.
    args: (target: string) => ['--tsconfig-override=test/runtimes/tsconfig.dist.json', SERVER, target],
  },
  {
    name: 'Deno',
    bin: runtimeBinary('deno'),
    // -A: network and env; the workspace's package.json and node_modules resolve `hono` and `@hookgate/*`;
    // sloppy imports map the sources' `.js` specifiers to their `.ts` files.
    args: (target: string) => [
      'run',
      '-A',
      '--unstable-sloppy-imports',
      '--node-modules-dir=manual',
      '--no-lock',
      SERVER,
      target,
    ],
  },
] as const;

// `resolved`: the file the runtime loads for the package. Both runtimes match the `node` export
// condition, so core comes from its Node build (dist/node/index.js, node:crypto imported statically).
const TARGETS = [
  {
    target: 'core',
    label: `core's receiver.fetch (served directly)`,
    pkg: 'core',
    resolved: /\/packages\/core\/dist\/node\/index\.js$/,
    passThrough: false,
  },
  {
    target: 'hono-on',
    label: 'hono, handlers in `on`',
    pkg: 'hono',
    resolved: /\/packages\/hono\/dist\/index\.js$/,
    passThrough: false,
  },
  {
    target: 'hono-next',
    label: "hono, pass-through to the route (c.get('webhook'))",
    pkg: 'hono',
    resolved: /\/packages\/hono\/dist\/index\.js$/,
    passThrough: true,
  },
] as const;

for (const runtime of RUNTIMES) {
  if (!runtime.bin) {
    describe.skip(`${runtime.name}: node_modules/.bin/${runtime.name.toLowerCase()} is absent (install the workspace's devDependencies)`, () => {
      it('is skipped', () => {});
    });
    continue;
  }
  for (const t of TARGETS) {
    runConformance(
      `${t.label} on ${runtime.name}`,
      async () => {
        assertBuilt(t.pkg === 'core' ? ['core'] : ['core', 'hono']);
        return spawnServer(runtime.bin!, runtime.args(t.target));
      },
      {
        passThrough: t.passThrough,
        expectInfo: {
          runtime: runtime.name.toLowerCase(),
          target: t.target,
          resolved: t.resolved,
          nodeCrypto: 'true',
        },
      },
    );
  }
}
