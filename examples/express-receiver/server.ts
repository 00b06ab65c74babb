// A webhook receiver on Express 5 with @hookgate/express.
//   pnpm example:express        (or: node --import tsx examples/express-receiver/server.ts)
// PORT (default 3000), HOST (default 127.0.0.1), WEBHOOK_SECRET (default: a fresh random secret).
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { handleClientErrors, hookgate } from '@hookgate/express';
import {
  exampleState,
  runIfMain,
  SERVER_LIMITS,
  type RunningReceiver,
  type StartOptions,
} from '../shared/example-receiver.js';

export type { RunningReceiver, StartOptions };

/**
 * Starts the Express example receiver.
 *
 * @example
 * const rx = await start({ port: 0, secret: 'my-secret' });
 * console.log(rx.url); // http://127.0.0.1:PORT/webhooks
 */
export async function start(options: StartOptions = {}): Promise<RunningReceiver> {
  const { secrets, seen, record } = exampleState(options);
  const app = express();
  const webhooks = hookgate({
    secret: secrets,
    // Typed handlers per message type; onMessage catches the types without their own.
    on: {
      track: (msg) => record(msg),
      identify: (msg) => record(msg),
      alias: (msg) => record(msg),
    },
    onMessage: (msg) => record(msg),
  });
  app.all('/webhooks', webhooks);

  // handleClientErrors: an oversize header or a stalled request gets 431/408 instead of a reset;
  // SERVER_LIMITS: headers and the whole request within 10 s (Node's own limits are far looser).
  const server = handleClientErrors(http.createServer(SERVER_LIMITS, app)).listen(
    options.port ?? 3000,
    options.host ?? '127.0.0.1',
  );
  await once(server, 'listening');
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}/webhooks`,
    secret: secrets[0]!,
    seen,
    close: async () => {
      await webhooks.receiver.drain();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

await runIfMain(import.meta.url, 'Express', 3000, start);
