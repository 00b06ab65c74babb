// The receiver: node:http + core's receiver with enqueue: enqueueTo(queue). It runs no handlers: it
// verifies, validates, stores the message as a BullMQ job, then answers 200.
// Env: REDIS_HOST, REDIS_PORT, WEBHOOK_SECRET, PORT (0: any free port). Prints {"port"} when listening.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createReceiver, handleClientErrors, toNodeListener } from '@hookgate/core';
import { enqueueTo } from '@hookgate/bullmq';
import { Queue } from 'bullmq';
import { SERVER_LIMITS } from '../shared/example-receiver.js';

const connection = { host: process.env.REDIS_HOST ?? '127.0.0.1', port: Number(process.env.REDIS_PORT ?? 6379) };
const queue = new Queue('webhooks', { connection });

const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET!, enqueue: enqueueTo(queue) });

// SERVER_LIMITS: headers and the whole request within 10 s; handleClientErrors: 431/408/400 instead of a reset.
const server = handleClientErrors(http.createServer(SERVER_LIMITS, toNodeListener(receiver) as http.RequestListener));
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});

const stop = () => {
  server.close();
  void queue.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
