// Pass-through typing for Webhooks (Actions): what a route behind an Actions receiver reads, typed as
// an Actions payload (Express `req.webhookPayload`, Fastify `request.webhookPayload`, Hono
// `c.get('webhook')` through the middleware's Env), and `onError`'s `info.message`. Checked by
// `tsc -p tsconfig.json` (expectTypeOf, expected-error directives) and run over real HTTP with
// Segment's own destination code (@segment/action-destinations 3.387.0).
import type http from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  createReceiver,
  isSpecEvent,
  toNodeListener,
  type ActionsErrorInfo,
  type ActionsPayload,
  type ReceiverErrorInfo,
  type WebhookMessage,
} from '@hookgate/core';
import { hookgate as expressHookgate } from '@hookgate/express';
import { hookgateRawBody, webhookRoute } from '@hookgate/fastify';
import { hookgate as honoHookgate, type HookgateActionsEnv, type HookgateMiddleware } from '@hookgate/hono';
import { listenOnLoopback, startHttpServer, type RunningServer } from '../helpers/servers.js';
import { segmentEvent, segmentSendEvent } from '../helpers/segment-actions-sender.js';

const SECRET = 'whsec_actions_pass_through_7a';
const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

/** Sends a whole event (PUT) and a mapped payload (PATCH) through Segment's code; returns what the route read. */
async function drive(url: string, seen: unknown[]): Promise<{ event: Record<string, unknown> }> {
  const event = segmentEvent('track');
  expect(await segmentSendEvent(event, { url, method: 'PUT' }, SECRET)).toEqual({ ok: true, status: 200 });
  expect(
    await segmentSendEvent(
      segmentEvent('track'),
      { url, method: 'PATCH', data: { orderId: { '@path': '$.properties.orderId' } } },
      SECRET,
    ),
  ).toEqual({ ok: true, status: 200 });
  expect(seen).toHaveLength(2);
  expect(seen[0]).toEqual(event);
  expect(seen[1]).toEqual({ orderId: expect.stringMatching(/^o-\d+$/) });
  return { event };
}

describe('Actions pass-through routes: the payload typed as an Actions payload', () => {
  it('Express: req.webhookPayload', async () => {
    const seen: unknown[] = [];
    const app = express();
    app.all('/hook', expressHookgate({ destination: 'actions', secret: SECRET }), (req, res) => {
      expectTypeOf(req.webhookPayload).toEqualTypeOf<ActionsPayload | undefined>();
      const payload = req.webhookPayload!;
      if (isSpecEvent(payload) && payload.type === 'track') expectTypeOf(payload.event).toEqualTypeOf<string>();
      seen.push(payload);
      res.json({ ok: true });
    });
    // A classic route sets no webhookPayload.
    app.post('/classic', expressHookgate({ secret: SECRET }), (req, res) => {
      expectTypeOf(req.webhook).toEqualTypeOf<WebhookMessage | undefined>();
      res.json({ payload: req.webhookPayload ?? null });
    });
    const server = await startHttpServer(app);
    servers.push(server);
    await drive(`${server.url}/hook`, seen);
  });

  it('Fastify webhookRoute: request.webhookPayload', async () => {
    const seen: unknown[] = [];
    const app = Fastify();
    await app.register(async (scope) => {
      await scope.register(hookgateRawBody);
      scope.all('/hook', webhookRoute({ destination: 'actions', secret: SECRET }), async (request) => {
        expectTypeOf(request.webhookPayload).toEqualTypeOf<ActionsPayload | undefined>();
        seen.push(request.webhookPayload);
        return { ok: true };
      });
    });
    await app.ready();
    const server = await listenOnLoopback(app.server);
    servers.push(server);
    await drive(`${server.url}/hook`, seen);
  });

  it("Hono: c.get('webhook') is an ActionsPayload behind hookgate({ destination: 'actions' }), a classic message behind the classic one", async () => {
    const seen: unknown[] = [];
    const app = new Hono();
    const actions = honoHookgate({ destination: 'actions', secret: SECRET });
    expectTypeOf(actions).toEqualTypeOf<HookgateMiddleware<HookgateActionsEnv>>();
    app.on(['POST', 'PUT', 'PATCH'], '/hook', actions, (c) => {
      const payload = c.get('webhook');
      expectTypeOf(payload).toEqualTypeOf<ActionsPayload>();
      // @ts-expect-error an Actions payload is not a classic message
      const wrong: WebhookMessage = c.get('webhook');
      void wrong;
      seen.push(payload);
      return c.json({ ok: true });
    });
    app.post('/classic', honoHookgate({ secret: SECRET }), (c) => {
      expectTypeOf(c.get('webhook')).toEqualTypeOf<WebhookMessage>();
      return c.json({ ok: true });
    });
    const server = await listenOnLoopback(createAdaptorServer({ fetch: app.fetch }) as http.Server);
    servers.push(server);
    await drive(`${server.url}/hook`, seen);
  });
});

describe("onError's info on an Actions receiver", () => {
  it('info.message is typed and holds the payload as it arrived', async () => {
    const reported: Array<ActionsErrorInfo['message']> = [];
    const receiver = createReceiver({
      destination: 'actions',
      secret: SECRET,
      onPayload: () => {
        throw new Error('downstream down');
      },
      onError: (_error, info) => {
        expectTypeOf(info.message).toEqualTypeOf<ActionsPayload | readonly ActionsPayload[] | undefined>();
        // @ts-expect-error not a classic message: no narrowing on a classic `type` union
        const classic: ReceiverErrorInfo['message'] = info.message;
        void classic;
        reported.push(info.message);
      },
    });
    const server = await startHttpServer(toNodeListener(receiver));
    servers.push(server);
    const event = segmentEvent('identify');
    const outcome = await segmentSendEvent(
      event,
      { url: server.url, method: 'PATCH', data: { email: { '@path': '$.traits.email' } } },
      SECRET,
    );
    expect(outcome.status).toBe(500);
    expect(reported).toEqual([{ email: 'ada@example.com' }]);
  });
});
