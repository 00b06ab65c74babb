// The Hono conformance target for Bun and Deno: the same app as the Node run (test/adapters/targets/hono-app.ts),
// importing the BUILT packages (node_modules/@hookgate/* → packages/*/dist). Started by hono-runtimes.test.ts:
//   bun --tsconfig-override=test/runtimes/tsconfig.dist.json test/runtimes/hono-server.ts [on|next]
//   deno run -A --unstable-sloppy-imports --node-modules-dir=manual --no-lock test/runtimes/hono-server.ts [on|next]
// Prints `HOOKGATE_URL=<base url>` once listening on 127.0.0.1 (ephemeral port).
import { Recorder } from '../adapters/conformance-scenarios.js';
import { buildHonoApp } from '../adapters/targets/hono-app.js';

declare const Bun: { serve(o: { port: number; hostname: string; fetch: (r: Request) => Response | Promise<Response> }): { port: number } } | undefined;
declare const Deno:
  | {
      args: string[];
      serve(
        o: { port: number; hostname: string; onListen(addr: { port: number }): void },
        fetch: (r: Request) => Response | Promise<Response>,
      ): unknown;
    }
  | undefined;

const args: string[] = typeof Deno !== 'undefined' ? Deno.args : (globalThis as unknown as { process: { argv: string[] } }).process.argv.slice(2);
const mode = args[0] === 'next' ? 'next' : 'on';
// Reported at /_seen, so the test can check that the built package (dist/) is what runs.
const resolved = (import.meta as unknown as { resolve(s: string): string }).resolve('@hookgate/hono');
// Whether node:crypto is there: core's receiver (crypto: 'auto') then takes the sync path, else Web Crypto.
const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
const nodeCrypto = String(Boolean(proc?.getBuiltinModule?.('node:crypto')));
const app = buildHonoApp(new Recorder({ resolved, nodeCrypto }), { mode });

if (typeof Bun !== 'undefined') {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: app.fetch });
  console.log(`HOOKGATE_URL=http://127.0.0.1:${server.port}`);
} else if (typeof Deno !== 'undefined') {
  Deno.serve({ port: 0, hostname: '127.0.0.1', onListen: ({ port }) => console.log(`HOOKGATE_URL=http://127.0.0.1:${port}`) }, app.fetch);
} else {
  throw new Error('hono-server.ts runs under Bun or Deno; on Node the table runs in-process (test/adapters/hono-node.conformance.test.ts).');
}
