// Webhooks (Actions) on every receiver set-up, sent by Segment's own destination code
// (@segment/action-destinations 3.387.0 through @segment/actions-core) over real HTTP: core's node
// listener, core's fetch handler (on @hono/node-server), Express, the Fastify plugin (hookgateActions,
// and hookgate with destination: 'actions'), Fastify's webhookRoute, Hono on @hono/node-server.
import type http from 'node:http';
import { createHmac } from 'node:crypto';
import { createAdaptorServer } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { createReceiver, toNodeListener, type ActionsHandlerContext, type ReceiverOptions } from '@hookgate/core';
import { hookgate as expressHookgate } from '@hookgate/express';
import {
  hookgate as fastifyHookgate,
  hookgateActions,
  hookgateRawBody,
  webhookRoute,
  type HookgatePluginOptions,
} from '@hookgate/fastify';
import { hookgate as honoHookgate } from '@hookgate/hono';
import { listenOnLoopback, startHttpServer, type RunningServer } from '../helpers/servers.js';
import {
  SEGMENT_ACTION_DESTINATIONS_VERSION,
  segmentEvent,
  segmentSendBatch,
  segmentSendEvent,
} from '../helpers/segment-actions-sender.js';

const SECRET = 'whsec_actions_interop_5c1e';
const hmac = (text: string) => createHmac('sha1', SECRET).update(text).digest('hex');

/** What a set-up's handlers saw: the payload and where it stood in a batch. */
interface Seen {
  via: 'on' | 'onPayload' | 'route';
  payload: Record<string, unknown>;
  batch: ActionsHandlerContext['batch'];
  method: string | undefined;
}

/** The receiver options every handler set-up shares; `seen` collects what ran. */
function handlerOptions(seen: Seen[], batches: boolean) {
  const record = (via: Seen['via']) => (payload: object, ctx: ActionsHandlerContext) =>
    void seen.push({ via, payload: payload as Record<string, unknown>, batch: ctx.batch, method: methodOf(ctx) });
  return {
    destination: 'actions' as const,
    secret: SECRET,
    ...(batches ? { insecureAcceptBatches: true } : {}),
    on: {
      track: record('on'),
      identify: record('on'),
      page: record('on'),
      screen: record('on'),
      group: record('on'),
      alias: record('on'),
    },
    onPayload: record('onPayload'),
  };
}

function methodOf(ctx: ActionsHandlerContext): string | undefined {
  const extra = ctx as unknown as {
    req?: { method: string };
    request?: { method: string };
    c?: { req: { method: string } };
  };
  return extra.req?.method ?? extra.request?.method ?? extra.c?.req.method;
}

interface SetUp {
  name: string;
  /** Whether handlers run in the receiver (false: a pass-through route reads the payload). */
  handlers: boolean;
  /** Whether the handler context carries the framework's request (core's own set-ups have none). */
  request?: boolean;
  start(seen: Seen[], batches: boolean): Promise<RunningServer>;
}

const SETUPS: SetUp[] = [
  {
    name: "core's node listener",
    handlers: true,
    start: (seen, batches) =>
      startHttpServer(toNodeListener(createReceiver(handlerOptions(seen, batches) as unknown as ReceiverOptions))),
  },
  {
    name: "core's fetch handler (@hono/node-server)",
    handlers: true,
    start: (seen, batches) => {
      const receiver = createReceiver(handlerOptions(seen, batches) as unknown as ReceiverOptions);
      return listenOnLoopback(createAdaptorServer({ fetch: (request) => receiver.fetch(request) }) as http.Server);
    },
  },
  {
    name: 'Express',
    request: true,
    handlers: true,
    start: (seen, batches) => {
      const app = express();
      app.all('/hook', expressHookgate(handlerOptions(seen, batches)));
      return startHttpServer(app);
    },
  },
  {
    name: 'Express pass-through (the route answers)',
    handlers: false,
    request: true,
    start: (seen) => {
      const app = express();
      app.all('/hook', expressHookgate({ destination: 'actions', secret: SECRET }), (req, res) => {
        seen.push({
          via: 'route',
          payload: req.webhook as unknown as Record<string, unknown>,
          batch: undefined,
          method: req.method,
        });
        res.json({ ok: true });
      });
      return startHttpServer(app);
    },
  },
  {
    name: 'Fastify plugin (hookgateActions)',
    request: true,
    handlers: true,
    start: async (seen, batches) => {
      const app = Fastify();
      const { destination: _implied, ...options } = handlerOptions(seen, batches);
      await app.register(hookgateActions, { path: '/hook', ...options });
      await app.ready();
      return listenOnLoopback(app.server);
    },
  },
  {
    name: "Fastify plugin (hookgate, destination: 'actions')",
    request: true,
    handlers: true,
    start: async (seen, batches) => {
      const app = Fastify();
      await app.register(fastifyHookgate, {
        path: '/hook',
        ...handlerOptions(seen, batches),
      } as unknown as HookgatePluginOptions);
      await app.ready();
      return listenOnLoopback(app.server);
    },
  },
  {
    name: 'Fastify webhookRoute',
    request: true,
    handlers: false,
    start: async (seen) => {
      const app = Fastify();
      await app.register(async (scope) => {
        await scope.register(hookgateRawBody);
        scope.all('/hook', webhookRoute({ destination: 'actions', secret: SECRET }), async (request) => {
          seen.push({
            via: 'route',
            payload: request.webhook as unknown as Record<string, unknown>,
            batch: undefined,
            method: request.method,
          });
          return { ok: true };
        });
      });
      await app.ready();
      return listenOnLoopback(app.server);
    },
  },
  {
    name: 'Hono on @hono/node-server',
    request: true,
    handlers: true,
    start: (seen, batches) => {
      const app = new Hono();
      app.all('/hook', honoHookgate(handlerOptions(seen, batches)));
      return listenOnLoopback(createAdaptorServer({ fetch: app.fetch }) as http.Server);
    },
  },
  {
    name: 'Hono pass-through (the route answers)',
    handlers: false,
    request: true,
    start: (seen) => {
      const app = new Hono();
      app.all('/hook', honoHookgate({ destination: 'actions', secret: SECRET }), (c) => {
        seen.push({
          via: 'route',
          payload: c.get('webhook'),
          batch: undefined,
          method: c.req.method,
        });
        return c.json({ ok: true });
      });
      return listenOnLoopback(createAdaptorServer({ fetch: app.fetch }) as http.Server);
    },
  },
];

const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function started(setUp: SetUp, batches = false): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = await setUp.start(seen, batches);
  servers.push(server);
  return { url: `${server.url}/hook`, seen };
}

it(`drives Segment's code at version 3.387.0`, () => {
  expect(SEGMENT_ACTION_DESTINATIONS_VERSION).toBe('3.387.0');
});

describe.each(SETUPS)('$name', (setUp) => {
  it('single events, POST, PUT and PATCH, default mapping: the whole Segment event, once per messageId', async () => {
    const { url, seen } = await started(setUp);
    const events = [segmentEvent('track'), segmentEvent('identify'), segmentEvent('group')];
    const methods = ['POST', 'PUT', 'PATCH'] as const;
    for (const [i, event] of events.entries()) {
      expect(await segmentSendEvent(event, { url, method: methods[i] }, SECRET)).toEqual({ ok: true, status: 200 });
    }
    // Segment retries the same event: not handled again.
    expect((await segmentSendEvent(events[0]!, { url, method: 'PUT' }, SECRET)).ok).toBe(true);
    expect(seen.map((s) => [s.via, s.method, s.payload])).toEqual(
      events.map((e, i) => [setUp.handlers ? 'on' : 'route', setUp.request ? methods[i] : undefined, e]),
    );
  });

  it('mapped data objects (no messageId) by POST, PUT and PATCH reach onPayload, deduped by their signed digest; a wrong secret is 401', async () => {
    const { url, seen } = await started(setUp);
    const methods = ['POST', 'PUT', 'PATCH'] as const;
    for (const [i, method] of methods.entries()) {
      const event = segmentEvent('track', { properties: { orderId: `o-${i}`, total: 9.5 } });
      const mapping = {
        url,
        method,
        headers: { 'X-Team': 'growth' },
        data: { order: { '@path': '$.properties.orderId' }, total: { '@path': '$.properties.total' } },
      };
      expect((await segmentSendEvent(event, mapping, SECRET)).ok).toBe(true);
      expect((await segmentSendEvent(event, mapping, SECRET)).ok).toBe(true);
      expect(await segmentSendEvent(event, mapping, 'not-the-secret')).toMatchObject({ ok: false, status: 401 });
    }
    expect(seen.map((s) => [s.via, s.method, s.payload])).toEqual(
      methods.map((m, i) => [
        setUp.handlers ? 'onPayload' : 'route',
        setUp.request ? m : undefined,
        { order: `o-${i}`, total: 9.5 },
      ]),
    );
  });

  it("batches are refused by default with 422, which Segment's code receives", async () => {
    const { url, seen } = await started(setUp);
    expect(await segmentSendBatch([segmentEvent('track'), segmentEvent('track')], { url }, SECRET)).toMatchObject({
      ok: false,
      status: 422,
    });
    expect(seen).toEqual([]);
  });

  if (setUp.handlers) {
    it('with insecureAcceptBatches: each element once, coverage in ctx.batch; a forged element is flagged uncovered', async () => {
      const { url, seen } = await started(setUp, true);
      const events = [segmentEvent('track'), segmentEvent('identify')];
      expect(await segmentSendBatch(events, { url, method: 'PATCH' }, SECRET)).toEqual({ ok: true, status: 200 });
      expect(seen.map((s) => [s.payload.messageId, s.batch])).toEqual([
        [events[0]!.messageId, { index: 0, size: 2, signed: true, uncovered: [1], skipped: [] }],
        [events[1]!.messageId, { index: 1, size: 2, signed: false, uncovered: [1], skipped: [] }],
      ]);
      // A captured signature replayed with an element appended: only the new one runs, flagged uncovered.
      const forged = segmentEvent('track', { event: 'Refund Issued' });
      const body = JSON.stringify([...events, forged]);
      const answer = await fetch(url, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-signature': hmac(JSON.stringify(events[0])) },
        body,
      });
      expect(answer.status).toBe(200);
      expect(seen).toHaveLength(3);
      expect(seen[2]).toMatchObject({
        payload: { event: 'Refund Issued' },
        batch: { index: 2, size: 3, signed: false, uncovered: [1, 2], skipped: [] },
      });
      // A batch whose first element is not what was signed: 401, nothing runs.
      const tampered = JSON.stringify([{ ...events[0], event: 'Changed' }, forged]);
      const refused = await fetch(url, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-signature': hmac(JSON.stringify(events[0])) },
        body: tampered,
      });
      expect(refused.status).toBe(401);
      expect(seen).toHaveLength(3);
    });
  }

  it('a GET is 405 naming POST, PUT and PATCH', async () => {
    const { url } = await started(setUp);
    const answer = await fetch(url);
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST, PUT, PATCH');
  });
});
