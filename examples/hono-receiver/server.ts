// A webhook receiver on Hono (Node, via @hono/node-server) with @hookgate/hono.
//   pnpm example:hono           (or: node --import tsx examples/hono-receiver/server.ts)
// PORT (default 3002), HOST (default 127.0.0.1), WEBHOOK_SECRET (default: a fresh random secret).
// buildApp() returns a plain Hono app: its `fetch` can also be served by Bun.serve or Deno.serve.
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import type { WebhookMessage } from '@hookgate/core';
import { handleClientErrors, hookgate } from '@hookgate/hono';
import {
  exampleState,
  runIfMain,
  SERVER_LIMITS,
  type RunningReceiver,
  type StartOptions,
} from '../shared/example-receiver.js';

export type { RunningReceiver, StartOptions };

/**
 * Builds the Hono app: the middleware verifies, the route reads the typed `c.get('webhook')`.
 *
 * @example
 * const app = buildApp(['my-secret'], (msg) => console.log(msg.type));
 * const res = await app.request('/webhooks', { method: 'GET' }); // 405
 */
export function buildApp(secrets: string[], onMessage: (msg: WebhookMessage) => void): Hono {
  const app = new Hono();
  app.all('/webhooks', hookgate({ secret: secrets }), (c) => {
    const msg = c.get('webhook'); // typed WebhookMessage, narrowed on msg.type
    onMessage(msg);
    return c.json({ ok: true, type: msg.type });
  });
  return app;
}

/**
 * Starts the Hono example receiver on Node.
 *
 * @example
 * const rx = await start({ port: 0, secret: 'my-secret' });
 * console.log(rx.url); // http://127.0.0.1:PORT/webhooks
 */
export async function start(options: StartOptions = {}): Promise<RunningReceiver> {
  const { secrets, seen, record } = exampleState(options);
  const app = buildApp(secrets, record);
  // handleClientErrors: an oversize header or a stalled request gets 431/408 instead of a reset.
  // SERVER_LIMITS: headers and the whole request within 10 s (Node's own limits are far looser).
  const server = handleClientErrors(createAdaptorServer({ fetch: app.fetch, serverOptions: SERVER_LIMITS }) as Server);
  server.listen(options.port ?? 3002, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}/webhooks`,
    secret: secrets[0]!,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

await runIfMain(import.meta.url, 'Hono', 3002, start);
