// Issue #30 item 3 across the adapters, over real HTTP: a signed body with `12345678901234567890`
// reaches the handler (or the pass-through route) with `ctx.lossyNumbers` naming where JSON parsing
// changed it, and with `bigNumbers: 'string'` as its exact digits. Core's fetch handler; Express,
// Fastify and Hono, each with handlers and as a pass-through route. Core's node listener, Actions
// payloads and batches: packages/core/test/receiver-big-numbers.test.ts.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { createReceiver, sign, type HandlerContext, type ReceiverOptions } from '@hookgate/core';
import { hookgate as expressHookgate } from '@hookgate/express';
import { hookgate as fastifyHookgate, hookgateRawBody, webhookRoute } from '@hookgate/fastify';
import { hookgate as honoHookgate } from '@hookgate/hono';
import { listenOnLoopback, startHttpServer } from '../helpers/servers.js';

const SECRET = 'whsec_adapters_big_numbers_3f8e';
const PATH = '/webhooks';

type Options = Omit<ReceiverOptions, 'on' | 'onMessage'>;
interface Run {
  message: { properties?: Record<string, unknown> };
  lossyNumbers: readonly string[];
}
interface Running {
  url: string;
  runs: Run[];
  close(): Promise<void>;
}

const record = (runs: Run[]) => (message: unknown, ctx: HandlerContext) =>
  void runs.push({ message: message as Run['message'], lossyNumbers: ctx.lossyNumbers });

async function fastifyServe(app: ReturnType<typeof Fastify>, runs: Run[]): Promise<Running> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}${PATH}`, runs, close: () => app.close() };
}

const SETUPS: { name: string; start(options: Options): Promise<Running> }[] = [
  {
    name: "core's fetch handler (@hono/node-server adaptor)",
    async start(options) {
      const runs: Run[] = [];
      const receiver = createReceiver({ ...options, onMessage: record(runs) });
      const s = await listenOnLoopback(createAdaptorServer({ fetch: receiver.fetch, hostname: '127.0.0.1' }) as Server);
      return { url: `${s.url}${PATH}`, runs, close: s.close };
    },
  },
  {
    name: 'express, handlers',
    async start(options) {
      const runs: Run[] = [];
      const app = express();
      app.post(PATH, expressHookgate({ ...options, onMessage: record(runs) }));
      const s = await startHttpServer(app);
      return { url: `${s.url}${PATH}`, runs, close: s.close };
    },
  },
  {
    name: 'express, pass-through route (req.webhookContext)',
    async start(options) {
      const runs: Run[] = [];
      const app = express();
      app.post(PATH, expressHookgate(options), (req, res) => {
        record(runs)(req.webhook, req.webhookContext!);
        res.json({ ok: true });
      });
      const s = await startHttpServer(app);
      return { url: `${s.url}${PATH}`, runs, close: s.close };
    },
  },
  {
    name: 'fastify plugin, handlers',
    async start(options) {
      const runs: Run[] = [];
      const app = Fastify();
      await app.register(fastifyHookgate, { ...options, path: PATH, onMessage: record(runs) });
      return fastifyServe(app, runs);
    },
  },
  {
    name: 'fastify webhookRoute, pass-through (request.webhookContext)',
    async start(options) {
      const runs: Run[] = [];
      const app = Fastify();
      await app.register(async (scope) => {
        await scope.register(hookgateRawBody);
        scope.post(PATH, webhookRoute(options), async (request) => {
          record(runs)(request.webhook, request.webhookContext!);
          return { ok: true };
        });
      });
      return fastifyServe(app, runs);
    },
  },
  {
    name: 'hono on node, handlers',
    async start(options) {
      const runs: Run[] = [];
      const app = new Hono();
      app.post(PATH, honoHookgate({ ...options, onMessage: record(runs) }));
      const s = await listenOnLoopback(createAdaptorServer({ fetch: app.fetch, hostname: '127.0.0.1' }) as Server);
      return { url: `${s.url}${PATH}`, runs, close: s.close };
    },
  },
  {
    name: "hono on node, pass-through (c.get('webhookContext'))",
    async start(options) {
      const runs: Run[] = [];
      const app = new Hono();
      app.post(PATH, honoHookgate(options), (c) => {
        record(runs)(c.get('webhook'), c.get('webhookContext'));
        return c.json({ ok: true });
      });
      const s = await listenOnLoopback(createAdaptorServer({ fetch: app.fetch, hostname: '127.0.0.1' }) as Server);
      return { url: `${s.url}${PATH}`, runs, close: s.close };
    },
  },
];

let seq = 0;
function trackText(propertiesText: string): string {
  seq += 1;
  const head = JSON.stringify({
    version: 1,
    type: 'track',
    event: 'Order Completed',
    userId: 'u-1',
    messageId: `m-adapters-big-${seq}-${Math.random().toString(36).slice(2)}`,
    timestamp: '2026-11-27T10:00:00.000Z',
  });
  return `${head.slice(0, -1)},"properties":${propertiesText}}`;
}

async function post(url: string, text: string): Promise<number> {
  const res = await fetch(url, {
    method: 'POST',
    body: text,
    headers: { 'content-type': 'application/json', 'x-signature': sign(text, SECRET) },
  });
  await res.arrayBuffer();
  return res.status;
}

const BODY = '{"x":12345678901234567890,"items":[{"id":-98765432109876543210}],"note":"12345678901234567890","n":7}';

describe.each(SETUPS)('$name', (setup) => {
  let running: Running | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it('by default: the number JSON.parse gives, and its paths in ctx.lossyNumbers', async () => {
    running = await setup.start({ secret: SECRET });
    expect(await post(running.url, trackText(BODY))).toBe(200);
    expect(running.runs).toHaveLength(1);
    const [run] = running.runs;
    expect(run!.lossyNumbers).toEqual(['properties.x', 'properties.items[0].id']);
    expect(run!.message.properties).toEqual({
      x: 12345678901234567000,
      items: [{ id: Number('-98765432109876543210') }],
      note: '12345678901234567890',
      n: 7,
    });
  });

  it("bigNumbers: 'string': the exact digits, as strings", async () => {
    running = await setup.start({ secret: SECRET, bigNumbers: 'string' });
    expect(await post(running.url, trackText(BODY))).toBe(200);
    const [run] = running.runs;
    expect(run!.lossyNumbers).toEqual(['properties.x', 'properties.items[0].id']);
    expect(run!.message.properties).toEqual({
      x: '12345678901234567890',
      items: [{ id: '-98765432109876543210' }],
      note: '12345678901234567890',
      n: 7,
    });
  });

  it('an ordinary body: ctx.lossyNumbers is empty', async () => {
    running = await setup.start({ secret: SECRET, bigNumbers: 'string' });
    expect(await post(running.url, trackText('{"total":12.5,"id":9007199254740991}'))).toBe(200);
    expect(running.runs[0]!.lossyNumbers).toEqual([]);
    expect(running.runs[0]!.message.properties).toEqual({ total: 12.5, id: 9007199254740991 });
  });
});
