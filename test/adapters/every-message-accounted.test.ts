// Every message accounted for, on every way of serving a receiver: a message no handler runs (no handler
// for its type, or `on.track` keyed by event name without its event) answers 200 `unhandled` with
// `handled: false`; `onViolation` runs for every message that breaks the plan, handled or not. Real HTTP
// on 127.0.0.1, each body signed with core's `sign` over its exact bytes. The worker's side of the same
// table is packages/bullmq/test/every-job-accounted.test.ts.
import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReceiver, sign, toNodeListener } from '@hookgate/core';
import { hookgate as expressHookgate } from '@hookgate/express';
import { hookgate as fastifyHookgate, hookgateRawBody, webhookRoute } from '@hookgate/fastify';
import { hookgate as honoHookgate } from '@hookgate/hono';
import { listenOnLoopback, startHttpServer, type RunningServer } from '../helpers/servers.js';
import { EVENTS, MESSAGES, PLAN, ranRecorder, type MessageName } from '../helpers/accounting-cases.js';
import { compileTrackingPlan } from '@hookgate/plans';

const SECRET = 'whsec_every_message_accounted';
const plan = compileTrackingPlan(PLAN);

/** What ran for each message, by its messageId: `handler`, `onMessage`, `onViolation` or `route`. */
const { ran, record } = ranRecorder();

// The receivers of the table: handlers for track keyed by event name (needs the plan), not keyed, or
// none for the messages sent (only `identify`), each with and without a plan and `onViolation`.
const SETUPS = {
  'no plan, unkeyed': () => ({ on: { track: record('handler') } }),
  'no plan, no handler': () => ({ on: { identify: record('handler') } }),
  'plan, unkeyed': () => ({ trackingPlan: plan, on: { track: record('handler') } }),
  'plan, keyed': () => ({ trackingPlan: plan, on: { track: { 'Order Completed': record('handler') } } }),
  'plan, no handler': () => ({ trackingPlan: plan, on: { identify: record('handler') } }),
  'plan, keyed, onMessage': () => ({
    trackingPlan: plan,
    on: { track: { 'Order Completed': record('handler') } },
    onMessage: record('onMessage'),
  }),
  'plan, unkeyed, onViolation': () => ({
    trackingPlan: plan,
    on: { track: record('handler') },
    onViolation: record('onViolation'),
  }),
  'plan, keyed, onViolation': () => ({
    trackingPlan: plan,
    on: { track: { 'Order Completed': record('handler') } },
    onViolation: record('onViolation'),
  }),
  'plan, no handler, onViolation': () => ({
    trackingPlan: plan,
    on: { identify: record('handler') },
    onViolation: record('onViolation'),
  }),
};
type SetupName = keyof typeof SETUPS;
// The options as the adapters take them (the table's handlers are loosely typed on purpose).
type AnyOptions = Record<string, unknown> & { secret: string };
const optionsOf = (setup: SetupName): AnyOptions => ({ secret: SECRET, ...SETUPS[setup]() });

type Outcome = 'handler' | 'onMessage' | 'onViolation' | 'unhandled';
// prettier-ignore
const TABLE: [SetupName, MessageName, Outcome][] = [
  ['no plan, unkeyed', 'planned', 'handler'],
  ['no plan, unkeyed', 'unplanned', 'handler'],
  ['no plan, unkeyed', 'violating', 'handler'],
  ['no plan, unkeyed', 'violating group', 'unhandled'],
  ['no plan, no handler', 'planned', 'unhandled'],
  ['no plan, no handler', 'unplanned', 'unhandled'],
  ['no plan, no handler', 'violating', 'unhandled'],
  ['plan, unkeyed', 'planned', 'handler'],
  ['plan, unkeyed', 'planned, not keyed', 'handler'],
  ['plan, unkeyed', 'unplanned', 'handler'],
  ['plan, unkeyed', 'violating', 'handler'],
  ['plan, unkeyed', 'violating group', 'unhandled'],
  ['plan, keyed', 'planned', 'handler'],
  ['plan, keyed', 'planned, not keyed', 'unhandled'],
  ['plan, keyed', 'unplanned', 'unhandled'],
  ['plan, keyed', 'violating', 'handler'],
  ['plan, keyed', 'violating group', 'unhandled'],
  ['plan, keyed', 'named __proto__', 'unhandled'],
  ['plan, keyed', 'named constructor', 'unhandled'],
  ['plan, unkeyed', 'named __proto__', 'handler'],
  ['plan, keyed, onMessage', 'planned', 'handler'],
  ['plan, keyed, onMessage', 'planned, not keyed', 'onMessage'],
  ['plan, keyed, onMessage', 'unplanned', 'onMessage'],
  ['plan, keyed, onMessage', 'violating group', 'onMessage'],
  ['plan, keyed, onMessage', 'named constructor', 'onMessage'],
  ['plan, no handler', 'planned', 'unhandled'],
  ['plan, no handler', 'unplanned', 'unhandled'],
  ['plan, no handler', 'violating', 'unhandled'],
  ['plan, unkeyed, onViolation', 'planned', 'handler'],
  ['plan, unkeyed, onViolation', 'unplanned', 'handler'],
  ['plan, unkeyed, onViolation', 'violating', 'onViolation'],
  ['plan, unkeyed, onViolation', 'violating group', 'onViolation'],
  ['plan, keyed, onViolation', 'planned', 'handler'],
  ['plan, keyed, onViolation', 'planned, not keyed', 'unhandled'],
  ['plan, keyed, onViolation', 'unplanned', 'unhandled'],
  ['plan, keyed, onViolation', 'violating', 'onViolation'],
  ['plan, keyed, onViolation', 'violating group', 'onViolation'],
  ['plan, no handler, onViolation', 'planned', 'unhandled'],
  ['plan, no handler, onViolation', 'unplanned', 'unhandled'],
  ['plan, no handler, onViolation', 'violating', 'onViolation'],
  ['plan, no handler, onViolation', 'violating group', 'onViolation'],
];

// Pass-through: no handlers, the framework's route runs the message (or `onViolation` instead).
const ROUTE_SETUPS = {
  'no plan': () => ({}),
  plan: () => ({ trackingPlan: plan }),
  'plan, onViolation': () => ({ trackingPlan: plan, onViolation: record('onViolation') }),
};
type RouteSetupName = keyof typeof ROUTE_SETUPS;
// prettier-ignore
const ROUTE_TABLE: [RouteSetupName, MessageName, 'route' | 'onViolation'][] = [
  ['no plan', 'planned', 'route'],
  ['no plan', 'violating', 'route'],
  ['no plan', 'violating group', 'route'],
  ['plan', 'planned', 'route'],
  ['plan', 'unplanned', 'route'],
  ['plan', 'violating', 'route'],
  ['plan', 'violating group', 'route'],
  ['plan, onViolation', 'planned', 'route'],
  ['plan, onViolation', 'unplanned', 'route'],
  ['plan, onViolation', 'violating', 'onViolation'],
  ['plan, onViolation', 'violating group', 'onViolation'],
];

/** A way of serving the receivers: each setup at `/<setup>`, each pass-through setup at `/route/<setup>`. */
interface Target {
  name: string;
  start(): Promise<RunningServer>;
  passThrough: boolean;
}

/** A setup's path segment: `plan, keyed` → `plan-keyed`. */
const slug = (setup: string) => setup.replace(/\W+/g, '-');
const setupOf = (url: string | undefined) => (url ?? '').split('?')[0]!.slice(1);

const TARGETS: Target[] = [
  {
    name: "core's node listener",
    passThrough: false,
    start: () => {
      const listeners = new Map(
        Object.keys(SETUPS).map((s) => [slug(s), toNodeListener(createReceiver(optionsOf(s as SetupName) as never))]),
      );
      return startHttpServer((req, res) => listeners.get(setupOf(req.url))!(req, res));
    },
  },
  {
    name: "core's receiver.fetch",
    passThrough: false,
    start: () => {
      const receivers = new Map(
        Object.keys(SETUPS).map((s) => [slug(s), createReceiver(optionsOf(s as SetupName) as never)]),
      );
      const fetch = (request: Request) => receivers.get(setupOf(new URL(request.url).pathname))!.fetch(request);
      return listenOnLoopback(createAdaptorServer({ fetch, hostname: '127.0.0.1' }) as Server);
    },
  },
  {
    name: 'Express',
    passThrough: true,
    start: () => {
      const app = express();
      for (const s of Object.keys(SETUPS)) app.post(`/${slug(s)}`, expressHookgate(optionsOf(s as SetupName) as never));
      for (const [s, options] of Object.entries(ROUTE_SETUPS)) {
        app.post(`/route/${slug(s)}`, expressHookgate({ secret: SECRET, ...options() }), (req, res) => {
          record('route')(req.webhook);
          res.json({ code: 'route' });
        });
      }
      return listenOnLoopback(app.listen(0, '127.0.0.1'));
    },
  },
  {
    name: 'Fastify',
    passThrough: true,
    start: async () => {
      const app = Fastify();
      for (const s of Object.keys(SETUPS)) {
        await app.register(fastifyHookgate, {
          ...optionsOf(s as SetupName),
          path: `/${slug(s)}`,
        } as never);
      }
      await app.register(async (scope) => {
        await scope.register(hookgateRawBody);
        for (const [s, options] of Object.entries(ROUTE_SETUPS)) {
          scope.post(`/route/${slug(s)}`, webhookRoute({ secret: SECRET, ...options() }), async (request) => {
            record('route')(request.webhook);
            return { code: 'route' };
          });
        }
      });
      await app.ready();
      return listenOnLoopback(app.server);
    },
  },
  {
    name: 'Hono',
    passThrough: true,
    start: () => {
      const app = new Hono();
      for (const s of Object.keys(SETUPS)) app.post(`/${slug(s)}`, honoHookgate(optionsOf(s as SetupName) as never));
      for (const [s, options] of Object.entries(ROUTE_SETUPS)) {
        app.post(`/route/${slug(s)}`, honoHookgate({ secret: SECRET, ...options() }), (c) => {
          record('route')(c.get('webhook'));
          return c.json({ code: 'route' });
        });
      }
      return listenOnLoopback(createAdaptorServer({ fetch: app.fetch, hostname: '127.0.0.1' }) as Server);
    },
  },
];

/** POSTs a body as the sender does: JSON, `X-Signature` from core's `sign` over the exact bytes. */
async function post(url: string, body: object): Promise<{ status: number; json: Record<string, unknown> }> {
  const text = JSON.stringify(body);
  const res = await fetch(url, {
    method: 'POST',
    body: text,
    headers: { 'content-type': 'application/json', 'user-agent': 'Segment.io/1.0', 'x-signature': sign(text, SECRET) },
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe.each(TARGETS)('every message accounted for: $name', (target) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await target.start();
  });
  afterAll(() => server?.close());

  it.each(TABLE)('%s, %s message → %s', async (setup, name, outcome) => {
    const message = MESSAGES[name]();
    const answer = await post(`${server.url}/${slug(setup)}`, message);
    expect(answer.status).toBe(200);
    if (outcome === 'unhandled') {
      expect(answer.json).toMatchObject({ code: 'unhandled', handled: false });
      expect(ran.get(message.messageId)).toBeUndefined();
    } else {
      expect(answer.json).toMatchObject({ code: 'ok' });
      expect(ran.get(message.messageId)).toBe(outcome);
    }
  });

  it.runIf(target.passThrough).each(ROUTE_TABLE)(
    'pass-through route, %s, %s message → %s',
    async (setup, name, outcome) => {
      const message = MESSAGES[name]();
      const answer = await post(`${server.url}/route/${slug(setup)}`, message);
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ code: outcome === 'route' ? 'route' : 'ok' });
      expect(ran.get(message.messageId)).toBe(outcome);
    },
  );
});

// A Webhooks (Actions) receiver: a whole Segment event with no handler in `on` (and no `onPayload`)
// answers the same `unhandled`; `onViolation` runs for a violating one either way.
describe("every event accounted for on a Webhooks (Actions) receiver (core's node listener)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    const receivers = new Map(
      Object.entries({
        keyed: { on: { track: { 'Order Completed': record('handler') } } },
        'keyed, onViolation': {
          on: { track: { 'Order Completed': record('handler') } },
          onViolation: record('onViolation'),
        },
        'no handler, onViolation': { on: { identify: record('handler') }, onViolation: record('onViolation') },
      }).map(([s, options]) => [
        slug(s),
        toNodeListener(
          createReceiver({ destination: 'actions', secret: SECRET, trackingPlan: plan, ...options } as never),
        ),
      ]),
    );
    server = await startHttpServer((req, res) => receivers.get(setupOf(req.url))!(req, res));
  });
  afterAll(() => server?.close());

  // prettier-ignore
  it.each([
    ['keyed', 'planned', 'handler'],
    ['keyed', 'planned, not keyed', 'unhandled'],
    ['keyed', 'unplanned', 'unhandled'],
    ['keyed', 'violating group', 'unhandled'],
    ['keyed, onViolation', 'unplanned', 'unhandled'],
    ['keyed, onViolation', 'violating', 'onViolation'],
    ['keyed, onViolation', 'violating group', 'onViolation'],
    ['no handler, onViolation', 'planned', 'unhandled'],
    ['no handler, onViolation', 'violating', 'onViolation'],
  ] as const)('%s, %s event → %s', async (setup, name, outcome) => {
    const body = EVENTS[name]!();
    const answer = await post(`${server.url}/${slug(setup)}`, body);
    expect(answer.status).toBe(200);
    if (outcome === 'unhandled') {
      expect(answer.json).toMatchObject({ code: 'unhandled', handled: false });
      expect(ran.get(String(body.messageId))).toBeUndefined();
    } else {
      expect(answer.json).toMatchObject({ code: 'ok' });
      expect(ran.get(String(body.messageId))).toBe(outcome);
    }
  });
});
