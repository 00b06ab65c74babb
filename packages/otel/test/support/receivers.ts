// The same receiver options served five ways, each a real HTTP server on 127.0.0.1: core's node
// listener, core's fetch handler (on @hono/node-server), Express, Fastify and Hono.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { createReceiver, toNodeListener, type ReceiverOptions } from '@hookgate/core';
import { hookgate as expressHookgate } from '@hookgate/express';
import { hookgate as fastifyHookgate } from '@hookgate/fastify';
import { hookgate as honoHookgate } from '@hookgate/hono';
import express, { type RequestHandler } from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';

export interface Served {
  url: string;
  close(): Promise<void>;
}

async function listen(server: http.Server): Promise<Served> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Each adapter, serving `options` at `/webhooks`; `before` runs ahead of the receiver (Express only: an HTTP span). */
export const ADAPTERS: Record<string, (options: ReceiverOptions, before?: RequestHandler) => Promise<Served>> = {
  'core node listener': (options) => {
    const listener = toNodeListener(createReceiver(options));
    return listen(http.createServer((req, res) => void listener(req, res)));
  },
  'core fetch handler': (options) => {
    const receiver = createReceiver(options);
    return listen(createAdaptorServer({ fetch: (request) => receiver.fetch(request) }) as http.Server);
  },
  express: (options, before) => {
    const app = express();
    if (before) app.use(before);
    app.all('/webhooks', expressHookgate(options));
    return listen(http.createServer(app));
  },
  fastify: async (options) => {
    const app = Fastify();
    await app.register(fastifyHookgate, { path: '/webhooks', ...options });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}/webhooks`, close: () => app.close() };
  },
  hono: (options) => {
    const app = new Hono();
    app.all('/webhooks', honoHookgate(options));
    return listen(createAdaptorServer({ fetch: app.fetch }) as http.Server);
  },
};
