// The conformance target inside workerd (Cloudflare's Workers runtime): a module Worker that
// test/runtimes/workerd.ts bundles with esbuild from the BUILT packages (node_modules/@hookgate/* →
// packages/*/dist, with the `workerd`, `worker` and `browser` conditions a Workers bundler uses).
// One bundle serves several services of one workerd config, each picked by its `TARGET` binding:
//   core       core's `receiver.fetch` per scenario (test/adapters/targets/core-fetch.ts)
//   hono-on    the Hono app with handlers in the middleware's `on`
//   hono-next  the Hono app with pass-through to the route (c.get('webhook'))
//   hono-ctx   the Hono app with handlers in `on`, given the ExecutionContext and nothing else: the
//              middleware itself keeps acknowledge mode's background handler alive (waitUntil)
// The others end each request with `ctx.waitUntil(drain())`, as core's README tells Workers users to
// do, so a handler that runs on after the answer (acknowledge mode) is not cut off with the request.
import { Recorder } from '../adapters/conformance-scenarios.js';
import { buildCoreFetch } from '../adapters/targets/core-fetch.js';
import { buildHonoApp } from '../adapters/targets/hono-app.js';

interface Env {
  TARGET: 'core' | 'hono-on' | 'hono-next' | 'hono-ctx';
}
interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
  passThroughOnException(): void;
  props: unknown;
}
interface Target {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> | Response;
  /** Absent where the target keeps itself alive (hono-ctx). */
  drain?(): Promise<void>;
}

// Whether node:crypto is there (workerd gives it only with the nodejs_compat flag): core's receiver
// (crypto: 'auto') then takes the sync path, else Web Crypto.
const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
const nodeCrypto = String(Boolean(proc?.getBuiltinModule?.('node:crypto')));
// Workers forbid code generation from strings while serving a request (workerd allows it only at
// startup): checked on the first request and reported, so the test sees core run where eval throws.
function codegenDuringRequest(): 'allowed' | 'blocked' {
  try {
    (0, eval)('1');
    return 'allowed';
  } catch {
    return 'blocked';
  }
}
// What workerd answers here, reported at /_seen so the test knows it is not talking to something else.
const userAgent = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent ?? '';

function build(env: Env): Target {
  const recorder = new Recorder({
    runtime: 'workerd',
    userAgent,
    codegen: codegenDuringRequest(),
    target: env.TARGET,
    nodeCrypto,
  });
  if (env.TARGET === 'core') {
    const fetch = buildCoreFetch(recorder);
    return { fetch, drain: fetch.drain };
  }
  const receivers: { drain(): Promise<void> }[] = [];
  const app = buildHonoApp(recorder, {
    mode: env.TARGET === 'hono-next' ? 'next' : 'on',
    onReceiver: (r) => receivers.push(r),
  });
  if (env.TARGET === 'hono-ctx') return { fetch: (request, e, ctx) => app.fetch(request, e, ctx) };
  return {
    fetch: (request) => app.fetch(request),
    drain: async () => void (await Promise.all(receivers.map((r) => r.drain()))),
  };
}

let target: Target | undefined;

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    target ??= build(env);
    const response = await target.fetch(request, env, ctx);
    if (target.drain) ctx.waitUntil(target.drain());
    return response;
  },
};
