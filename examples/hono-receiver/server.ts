// A webhook receiver on Hono (Node, via @hono/node-server) with @hookgate/hono.
//   pnpm example:hono           (or: node --import tsx examples/hono-receiver/server.ts)
// PORT (default 3002), HOST (default 127.0.0.1), WEBHOOK_SECRET (default: a fresh random secret).
// buildApp() returns a plain Hono app: its `fetch` can also be served by Bun.serve or Deno.serve.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import type { WebhookMessage } from '@hookgate/core';
import { hookgate } from '@hookgate/hono';

/** Options of `start`. */
export interface StartOptions {
  /** Port to listen on; 0 picks a free one. Default 3002. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** The shared secret, or several during a rotation (the first is current). Default: a fresh random one. */
  secret?: string | string[];
  /** Log one line per message. Default false. */
  log?: boolean;
}

/** A running example receiver. */
export interface RunningReceiver {
  /** The full webhook URL, e.g. http://127.0.0.1:3002/webhooks. */
  url: string;
  /** The current secret (to configure the sender with). */
  secret: string;
  /** The messages the route ran for, in order. */
  seen: WebhookMessage[];
  /** Stops listening. */
  close(): Promise<void>;
}

/** One log line for a message. */
function describe(msg: WebhookMessage): string {
  switch (msg.type) {
    case 'track':
      return `track    ${msg.userId} "${msg.event}"`;
    case 'alias':
      return `alias    ${msg['Previous ID']} → ${msg['User ID']}`;
    case 'group':
      return `group    ${msg.userId} joined ${msg.groupId}`;
    case 'screen':
      return `screen   ${msg.userId} ${msg.name}`;
    case 'page':
      return `page     ${msg.userId} ${msg.properties?.path ?? ''}`;
    default:
      return `${msg.type.padEnd(8)} ${msg.userId}`;
  }
}

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
  const secrets = options.secret === undefined ? [randomBytes(24).toString('hex')] : [options.secret].flat();
  const seen: WebhookMessage[] = [];
  const app = buildApp(secrets, (msg) => {
    seen.push(msg);
    if (options.log) console.log(`${new Date().toISOString()}  ${describe(msg)}`);
  });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
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

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rx = await start({
    port: Number(process.env.PORT ?? 3002),
    host: process.env.HOST ?? '127.0.0.1',
    secret: process.env.WEBHOOK_SECRET || undefined,
    log: true,
  });
  console.log('hookgate Hono receiver');
  console.log(`  URL:    ${rx.url}`);
  console.log(`  Secret: ${rx.secret}${process.env.WEBHOOK_SECRET ? ' (from WEBHOOK_SECRET)' : ' (generated; set WEBHOOK_SECRET to choose one)'}`);
  console.log('  Send a signed message:');
  console.log(`    BODY='{"version":1,"type":"track","userId":"u1","event":"Signed Up","timestamp":"2026-01-01T00:00:00.000Z"}'`);
  console.log(`    curl -i ${rx.url} -H 'content-type: application/json' \\`);
  console.log(`      -H "x-signature: $(printf %s "$BODY" | openssl dgst -sha1 -hmac '${rx.secret}' | sed 's/^.* //')" -d "$BODY"`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void rx.close().then(() => process.exit(0)));
  }
}
