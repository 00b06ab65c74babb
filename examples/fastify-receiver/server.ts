// A webhook receiver on Fastify 5 with @hookgate/fastify.
//   pnpm example:fastify        (or: node --import tsx examples/fastify-receiver/server.ts)
// PORT (default 3001), HOST (default 127.0.0.1), WEBHOOK_SECRET (default: a fresh random secret).
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { answerClientError, hookgate } from '@hookgate/fastify';
import { exampleState, runIfMain, type RunningReceiver, type StartOptions } from '../shared/example-receiver.js';

export type { RunningReceiver, StartOptions };

/**
 * Starts the Fastify example receiver.
 *
 * @example
 * const rx = await start({ port: 0, secret: 'my-secret' });
 * console.log(rx.url); // http://127.0.0.1:PORT/webhooks
 */
export async function start(options: StartOptions = {}): Promise<RunningReceiver> {
  const { secrets, seen, record } = exampleState(options);

  // answerClientError: an oversize header or a stalled request gets 431/408 instead of a reset; headers
  // and the whole request within 10 s, checked every second (Node's and Fastify's own limits are far looser).
  const app = Fastify({
    http: { headersTimeout: 10_000, connectionsCheckingInterval: 1_000 },
    requestTimeout: 10_000,
    keepAliveTimeout: 5_000,
    clientErrorHandler: answerClientError,
  });
  await app.register(hookgate, {
    path: '/webhooks',
    secret: secrets,
    // Typed handlers per message type; onMessage catches the types without their own.
    on: {
      track: (msg) => record(msg),
      identify: (msg) => record(msg),
      alias: (msg) => record(msg),
    },
    onMessage: (msg) => record(msg),
  });
  await app.listen({ port: options.port ?? 3001, host: options.host ?? '127.0.0.1' });
  const { address, port } = app.server.address() as AddressInfo;
  return { url: `http://${address}:${port}/webhooks`, secret: secrets[0]!, seen, close: () => app.close() };
}

await runIfMain(import.meta.url, 'Fastify', 3001, start);
