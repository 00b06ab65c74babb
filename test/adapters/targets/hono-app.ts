// The Hono conformance target: every scenario at /webhooks/<scenario>, the recorder at /_seen.
// Shared by the Node run (sources) and the Bun, Deno and workerd runs (built packages).
import { Hono } from 'hono';
import { hookgate, type HookgateMiddleware } from '@hookgate/hono';
import { NEEDS_HANDLERS, type Recorder, SCENARIO_NAMES } from '../conformance-scenarios.js';

/** How the Hono target is mounted. */
export interface HonoAppOptions {
  /** `on`: handlers given to the middleware. `next`: pass-through, the route reads `c.get('webhook')`. */
  mode: 'on' | 'next';
  /** Force Web Crypto (`web`) instead of the default (`auto`: node:crypto where present). */
  crypto?: 'auto' | 'web';
  /** Called with each middleware's receiver (a Worker drains them in `ctx.waitUntil`). */
  onReceiver?: (receiver: { drain(): Promise<void> }) => void;
}

/** Builds the Hono app of the conformance table. */
export function buildHonoApp(recorder: Recorder, options: HonoAppOptions): Hono {
  const app = new Hono();
  // The same answer as Hono's default error handler, without its console.error of the stack (test noise).
  app.onError((_error, c) => c.text('Internal Server Error', 500));
  app.get('/_seen', (c) => c.json(recorder.report()));
  const mounted = (mw: HookgateMiddleware): HookgateMiddleware => {
    options.onReceiver?.(mw.receiver);
    return mw;
  };
  for (const scenario of SCENARIO_NAMES) {
    const path = `/webhooks/${scenario}`;
    const base = { ...recorder.options(scenario), crypto: options.crypto ?? 'auto' };
    if (options.mode === 'on' || NEEDS_HANDLERS.has(scenario)) {
      app.all(path, mounted(hookgate({ ...base, on: recorder.on(scenario) })));
    } else {
      const handler = recorder.handler(scenario, 'route');
      app.all(path, mounted(hookgate(base)), async (c) => {
        await handler(c.get('webhook'), c.get('webhookContext'));
        return c.json({ ok: true, route: true });
      });
    }
  }
  return app;
}
