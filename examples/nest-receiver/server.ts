// A webhook receiver on NestJS (Express platform): a controller at /webhooks, Nest's rawBody.
//   pnpm example:nest        (or: node --import tsx examples/nest-receiver/server.ts)
// PORT (default 3004), HOST (default 127.0.0.1), WEBHOOK_SECRET (default: a fresh random secret).
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createReceiver } from '@hookgate/core';
import { handleClientErrors } from '@hookgate/express';
import {
  exampleState,
  runIfMain,
  SERVER_LIMITS,
  type RunningReceiver,
  type StartOptions,
} from '../shared/example-receiver.js';
import { WebhooksModule } from './webhooks.module.js';

export type { RunningReceiver, StartOptions };

/**
 * Starts the NestJS example receiver.
 *
 * @example
 * const rx = await start({ port: 0, secret: 'my-secret' });
 * console.log(rx.url); // http://127.0.0.1:PORT/webhooks
 */
export async function start(options: StartOptions = {}): Promise<RunningReceiver> {
  const { secrets, seen, record } = exampleState(options);
  const receiver = createReceiver({
    secret: secrets,
    on: {
      track: (msg) => record(msg),
      identify: (msg) => record(msg),
      alias: (msg) => record(msg),
    },
    onMessage: (msg) => record(msg),
  });
  const app = await NestFactory.create<NestExpressApplication>(WebhooksModule.forReceiver(receiver), {
    rawBody: true, // req.rawBody: the exact bytes, which only can match the signature
    logger: false,
  });
  // Nest's JSON parser stops at 100 KB by default; let the receiver's own limit (1 MB) decide.
  app.useBodyParser('json', { limit: '1mb' });
  // An oversize header or a stalled request gets 431/408 instead of a reset.
  const server = handleClientErrors(app.getHttpServer());
  // SERVER_LIMITS: headers and the whole request within 10 s. Nest creates the server itself; Node reads
  // these from it when it starts listening.
  Object.assign(server, SERVER_LIMITS);
  await app.listen(options.port ?? 3004, options.host ?? '127.0.0.1');
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}/webhooks`,
    secret: secrets[0]!,
    seen,
    close: async () => {
      await receiver.drain();
      server.closeAllConnections();
      await app.close();
    },
  };
}

await runIfMain(import.meta.url, 'NestJS', 3004, start);
