// The conformance target for Bun and Deno, importing the BUILT packages (node_modules/@hookgate/* →
// packages/*/dist). Started by bun-deno.test.ts with one target:
//   core       core's `receiver.fetch` served directly (`Bun.serve({ fetch })`, `Deno.serve(fetch)`),
//              the same handler as the Node run (test/adapters/targets/core-fetch.ts)
//   hono-on    the Hono app (test/adapters/targets/hono-app.ts), handlers in the middleware's `on`
//   hono-next  the Hono app, pass-through to the route (c.get('webhook'))
//   bun --tsconfig-override=test/runtimes/tsconfig.dist.json test/runtimes/runtime-server.ts <target>
//   deno run -A --unstable-sloppy-imports --node-modules-dir=manual --no-lock test/runtimes/runtime-server.ts <target>
// Prints `HOOKGATE_URL=<base url>` once listening on 127.0.0.1 (ephemeral port).
import { Recorder } from '../adapters/conformance-scenarios.js';
import { buildCoreFetch } from '../adapters/targets/core-fetch.js';
import { buildHonoApp } from '../adapters/targets/hono-app.js';

declare const Bun:
  | {
      serve(o: { port: number; hostname: string; fetch: (r: Request) => Response | Promise<Response> }): {
        port: number;
      };
    }
  | undefined;
declare const Deno:
  | {
      args: string[];
      serve(
        o: { port: number; hostname: string; onListen(addr: { port: number }): void },
        fetch: (r: Request) => Response | Promise<Response>,
      ): unknown;
    }
  | undefined;

const TARGETS = ['core', 'hono-on', 'hono-next'] as const;
const args: string[] =
  typeof Deno !== 'undefined'
    ? Deno.args
    : (globalThis as unknown as { process: { argv: string[] } }).process.argv.slice(2);
const target = TARGETS.find((t) => t === args[0]);
if (!target)
  throw new Error(
    `runtime-server.ts: give the target as the first argument, one of ${TARGETS.join(', ')} (got ${JSON.stringify(args[0])}).`,
  );

// Reported at /_seen, so the test can check that the built package (dist/) is what runs.
const resolved = (import.meta as unknown as { resolve(s: string): string }).resolve(
  target === 'core' ? '@hookgate/core' : '@hookgate/hono',
);
// Whether node:crypto is there: core's receiver (crypto: 'auto') then takes the sync path, else Web Crypto.
const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
const nodeCrypto = String(Boolean(proc?.getBuiltinModule?.('node:crypto')));
const recorder = new Recorder({ resolved, target, nodeCrypto });
const fetch: (r: Request) => Response | Promise<Response> =
  target === 'core'
    ? buildCoreFetch(recorder)
    : buildHonoApp(recorder, { mode: target === 'hono-next' ? 'next' : 'on' }).fetch;

if (typeof Bun !== 'undefined') {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch });
  console.log(`HOOKGATE_URL=http://127.0.0.1:${server.port}`);
} else if (typeof Deno !== 'undefined') {
  Deno.serve(
    { port: 0, hostname: '127.0.0.1', onListen: ({ port }) => console.log(`HOOKGATE_URL=http://127.0.0.1:${port}`) },
    fetch,
  );
} else {
  throw new Error(
    'runtime-server.ts runs under Bun or Deno; on Node the table runs in-process (test/adapters/*.conformance.test.ts).',
  );
}
