// One receiver instance: node:http + core's receiver + the shared Redis dedupe store.
// Env: INSTANCE (a name), REDIS_URL, WEBHOOK_SECRET, PORT (0: any free port).
// Prints JSON lines on stdout: {"instance","port"} when listening, {"instance","handled"} per message.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createReceiver, extraFields, handleClientErrors, toNodeListener } from '@hookgate/core';
import { RedisIdempotencyStore } from '@hookgate/redis';
import { SERVER_LIMITS } from '../shared/example-receiver.js';

const name = process.env.INSTANCE ?? 'instance';
const say = (line: object) => process.stdout.write(`${JSON.stringify({ instance: name, ...line })}\n`);

const store = new RedisIdempotencyStore({
  connection: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  keyPrefix: 'hookgate-example:dedupe:',
});
await store.ready();

const receiver = createReceiver({
  secret: process.env.WEBHOOK_SECRET!,
  dedupe: { store, inFlightTtlMs: 30_000 },
  on: {
    track: async (message) => {
      await new Promise((resolve) => setTimeout(resolve, 200)); // the work: a database write, an API call…
      say({ handled: extraFields(message).messageId ?? null, event: message.event });
    },
  },
  onMessage: (message) => say({ handled: extraFields(message).messageId ?? null, type: message.type }),
});

// SERVER_LIMITS: headers and the whole request within 10 s; handleClientErrors: 431/408/400 instead of a reset.
const server = handleClientErrors(http.createServer(SERVER_LIMITS, toNodeListener(receiver) as http.RequestListener));
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  say({ port: (server.address() as AddressInfo).port });
});

// Shutdown loses nothing: stop accepting, let running handlers record their outcome, then close Redis.
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  server.close();
  server.closeIdleConnections();
  void receiver
    .drain()
    .then(() => store.close())
    .then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop); // Ctrl+C in a terminal reaches every process of the group
