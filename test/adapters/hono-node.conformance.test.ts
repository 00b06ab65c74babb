// The shared conformance table against @hookgate/hono on Node (@hono/node-server).
import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import { listenOnLoopback } from '../helpers/servers.js';
import { runConformance, type ConformanceTarget } from './conformance.js';
import { Recorder } from './conformance-scenarios.js';
import { buildHonoApp, type HonoAppOptions } from './targets/hono-app.js';

function start(options: HonoAppOptions): Promise<ConformanceTarget> {
  const app = buildHonoApp(new Recorder(), options);
  return listenOnLoopback(createAdaptorServer({ fetch: app.fetch, hostname: '127.0.0.1' }) as Server);
}

// The real 4 s default deadline runs once, here.
runConformance('hono on Node, handlers in `on`', () => start({ mode: 'on' }), { slow: true });
runConformance("hono on Node, pass-through to the route (c.get('webhook'))", () => start({ mode: 'next' }), {
  passThrough: true,
});
runConformance('hono on Node, Web Crypto forced (the path without node:crypto)', () =>
  start({ mode: 'on', crypto: 'web' }),
);
