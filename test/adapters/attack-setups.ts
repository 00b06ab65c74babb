// Every set-up a receiver runs in, served over real HTTP on 127.0.0.1:0, recording each handler run:
// shared by the attack tests (raw bytes, replays, deadline, overload).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { createReceiver, toNodeListener, type ReceiverOptions, type WebhookMessage } from '@hookgate/core';
import { hookgate as expressHookgate, hookgateErrorHandler } from '@hookgate/express';
import { hookgate as fastifyHookgate, hookgateRawBody, webhookRoute } from '@hookgate/fastify';
import { hookgate as honoHookgate } from '@hookgate/hono';
import { listenOnLoopback, startHttpServer } from '../helpers/servers.js';

/** What a set-up is given: the receiver options without handlers. */
export type SetupOptions = Omit<ReceiverOptions, 'on' | 'onMessage'>;

/** A running set-up: where to POST, what its handler saw, how to stop it. */
export interface RunningSetup {
  url: string;
  /** Each handler (or pass-through route) run, in order: the message, and for pass-through Hono the route's `c.req.text()`. */
  runs: Array<{ message: WebhookMessage; text?: string }>;
  close(): Promise<void>;
}

/** One way of mounting the receiver. `raw`: the receiver sees the raw bytes (no parser ran before it). */
export interface Setup {
  name: string;
  raw: boolean;
  /** A framework parser reads the body before hookgate (express.json()): the framework owns 413 and the read time. */
  frameworkReadsBody: boolean;
  start(options: SetupOptions): Promise<RunningSetup>;
}

const PATH = '/webhooks';

async function fastifyServe(app: ReturnType<typeof Fastify>): Promise<{ url: string; close(): Promise<void> }> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${PATH}`,
    close: async () => {
      app.server.closeAllConnections();
      await app.close();
    },
  };
}

function served(s: { url: string; close(): Promise<void> }, runs: RunningSetup['runs']): RunningSetup {
  return { url: `${s.url}${PATH}`, runs, close: s.close };
}

/** Every set-up of the issue: Express, Express after express.json(), Fastify plugin and webhookRoute, Hono on Node, core's listener and fetch handler. */
export const SETUPS: readonly Setup[] = [
  {
    name: "core's node listener",
    raw: true,
    frameworkReadsBody: false,
    async start(options) {
      const runs: RunningSetup['runs'] = [];
      const receiver = createReceiver({ ...options, onMessage: (message) => void runs.push({ message }) });
      const listener = toNodeListener(receiver);
      return served(await startHttpServer((req, res) => void listener(req, res)), runs);
    },
  },
  {
    name: "core's fetch handler (@hono/node-server adaptor)",
    raw: true,
    frameworkReadsBody: false,
    async start(options) {
      const runs: RunningSetup['runs'] = [];
      const receiver = createReceiver({ ...options, onMessage: (message) => void runs.push({ message }) });
      return served(
        await listenOnLoopback(createAdaptorServer({ fetch: receiver.fetch, hostname: '127.0.0.1' }) as Server),
        runs,
      );
    },
  },
  {
    name: 'express',
    raw: true,
    frameworkReadsBody: false,
    async start(options) {
      const runs: RunningSetup['runs'] = [];
      const app = express();
      app.post(PATH, expressHookgate({ ...options, onMessage: (message) => void runs.push({ message }) }));
      app.use(hookgateErrorHandler());
      return served(await startHttpServer(app), runs);
    },
  },
  {
    name: 'express after express.json()',
    raw: false,
    frameworkReadsBody: true,
    async start(options) {
      const runs: RunningSetup['runs'] = [];
      const app = express();
      app.use(express.json({ limit: options.maxBodyBytes ?? 1024 * 1024 }));
      app.post(PATH, expressHookgate({ ...options, onMessage: (message) => void runs.push({ message }) }));
      app.use(hookgateErrorHandler());
      return served(await startHttpServer(app), runs);
    },
  },
  {
    name: 'fastify plugin',
    raw: true,
    frameworkReadsBody: false,
    async start(options) {
      const runs: RunningSetup['runs'] = [];
      const app = Fastify();
      await app.register(fastifyHookgate, {
        ...options,
        path: PATH,
        onMessage: (message) => void runs.push({ message }),
      });
      return fastifyServe(app).then((s) => ({ ...s, runs }));
    },
  },
  {
    name: 'fastify webhookRoute (hookgateRawBody scope)',
    raw: true,
    frameworkReadsBody: false,
    async start(options) {
      const runs: RunningSetup['runs'] = [];
      const app = Fastify();
      await app.register(async (scope) => {
        await scope.register(hookgateRawBody, { bodyLimit: options.maxBodyBytes });
        scope.post(PATH, webhookRoute(options), async (request) => {
          runs.push({ message: request.webhook! });
          return { ok: true };
        });
      });
      return fastifyServe(app).then((s) => ({ ...s, runs }));
    },
  },
  {
    name: 'hono on node',
    raw: true,
    frameworkReadsBody: false,
    async start(options) {
      const runs: RunningSetup['runs'] = [];
      const app = new Hono();
      app.post(PATH, honoHookgate({ ...options, onMessage: (message) => void runs.push({ message }) }));
      return served(
        await listenOnLoopback(createAdaptorServer({ fetch: app.fetch, hostname: '127.0.0.1' }) as Server),
        runs,
      );
    },
  },
  {
    name: 'hono on node, pass-through (the route reads c.req.text())',
    raw: true,
    frameworkReadsBody: false,
    async start(options) {
      const runs: RunningSetup['runs'] = [];
      const app = new Hono();
      app.post(PATH, honoHookgate(options), async (c) => {
        runs.push({ message: c.get('webhook'), text: await c.req.text() });
        return c.json({ ok: true });
      });
      return served(
        await listenOnLoopback(createAdaptorServer({ fetch: app.fetch, hostname: '127.0.0.1' }) as Server),
        runs,
      );
    },
  },
];
