// The shared conformance table against @hookgate/hono on Node (@hono/node-server).
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { runConformance, type ConformanceTarget } from './conformance.js';
import { Recorder } from './conformance-scenarios.js';
import { buildHonoApp, type HonoAppOptions } from './targets/hono-app.js';

async function start(options: HonoAppOptions): Promise<ConformanceTarget> {
  const app = buildHonoApp(new Recorder(), options);
  const server = createAdaptorServer({ fetch: app.fetch, hostname: '127.0.0.1' });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        (server as import('node:http').Server).closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// The real 4 s default deadline runs once, here.
runConformance('hono on Node, handlers in `on`', () => start({ mode: 'on' }), { slow: true });
runConformance("hono on Node, pass-through to the route (c.get('webhook'))", () => start({ mode: 'next' }), { passThrough: true });
runConformance('hono on Node, Web Crypto forced (the path without node:crypto)', () => start({ mode: 'on', crypto: 'web' }));
