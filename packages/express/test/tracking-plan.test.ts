// A tracking plan through the Express adapter, over real HTTP: the options pass through to core, handlers
// keyed by event name get ctx.violations and ctx.planned beside req/res, onViolation runs instead.
import { readFileSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import express from 'express';
import { fixture } from '@hookgate/core';
import { hookgate } from '@hookgate/express';
import { closeAll, post, serve } from './helpers.js';
import { segmentEvent, segmentSendEvent } from '../../../test/helpers/segment-actions-sender.js';
import { compileTrackingPlan } from '@hookgate/plans';

afterEach(closeAll);
const SECRET = 'whsec_express_tests_3a1f';
const plan = compileTrackingPlan(
  JSON.parse(
    readFileSync(new URL('../../../test/fixtures/tracking-plans/public-api-rules.json', import.meta.url), 'utf8'),
  ),
);

it('runs keyed track handlers with ctx.violations, and onViolation instead for a violating message', async () => {
  const calls: string[] = [];
  const app = express();
  app.post(
    '/webhooks',
    hookgate({
      secret: SECRET,
      trackingPlan: plan,
      on: {
        track: {
          'Signed Up': (msg, ctx) =>
            void calls.push(`signed-up:${ctx.planned}:${ctx.violations.length}:${ctx.req.path}`),
          '*': (msg, ctx) => void calls.push(`other:${msg.event}:${ctx.planned}`),
        },
      },
      onViolation: (msg, violations) => void calls.push(`violation:${violations.map((v) => v.path).join()}`),
    }),
  );
  const { url } = await serve(app);
  const send = (m: object) => post(`${url}/webhooks`, JSON.stringify(m));
  expect((await send(fixture('track', { event: 'Signed Up', properties: { plan: 'pro' } }))).status).toBe(200);
  expect((await send(fixture('track', { event: 'Signed Up', properties: { plan: 'gold' } }))).status).toBe(200);
  expect((await send(fixture('track', { event: 'Coupon Applied' }))).status).toBe(200);
  expect(calls).toEqual(['signed-up:true:0:/webhooks', 'violation:properties.plan', 'other:Coupon Applied:false']);
});

it('refuses at creation a handler keyed by an event the plan does not have', () => {
  expect(() => hookgate({ secret: SECRET, trackingPlan: plan, on: { track: { 'Signed Upp': () => {} } } })).toThrow(
    /did you mean "Signed Up"\?/,
  );
});

it('pass-through: the route gets req.webhookContext.violations and .planned; onViolation runs instead of the route', async () => {
  const calls: string[] = [];
  const app = express();
  app.post('/events', hookgate({ secret: SECRET, trackingPlan: plan }), (req, res) => {
    const ctx = req.webhookContext!;
    calls.push(`route:${ctx.planned}:${ctx.violations.map((v) => v.path).join()}`);
    res.json({ ok: true });
  });
  app.post(
    '/checked',
    hookgate({
      secret: SECRET,
      trackingPlan: plan,
      onViolation: (msg, violations) => void calls.push(`violation:${msg.type}:${violations[0]?.path}`),
    }),
    (req, res) => {
      calls.push(`checked-route:${String(req.webhook?.type)}`);
      res.json({ ok: true });
    },
  );
  const { url } = await serve(app);
  const good = fixture('track', { event: 'Signed Up', properties: { plan: 'pro' } });
  const bad = fixture('track', { event: 'Signed Up', properties: { plan: 'gold' } });
  expect((await post(`${url}/events`, JSON.stringify(good))).status).toBe(200);
  expect((await post(`${url}/events`, JSON.stringify(bad))).status).toBe(200);
  expect((await post(`${url}/events`, JSON.stringify(fixture('track', { event: 'Coupon Applied' })))).status).toBe(200);
  expect((await post(`${url}/checked`, JSON.stringify(good))).status).toBe(200);
  const violating = await post(`${url}/checked`, JSON.stringify(bad));
  expect(violating.status).toBe(200);
  expect(calls).toEqual([
    'route:true:',
    'route:true:properties.plan',
    'route:false:',
    'checked-route:track',
    'violation:track:properties.plan',
  ]);
});

it("pass-through with destination: 'actions': whole Segment events are checked, mapped payloads are not", async () => {
  const calls: string[] = [];
  const app = express();
  app.put('/actions', hookgate({ destination: 'actions', secret: SECRET, trackingPlan: plan }), (req, res) => {
    const ctx = req.webhookContext!;
    calls.push(`${ctx.planned}:${ctx.violations.map((v) => v.path).join()}`);
    res.json({ ok: true });
  });
  const { url } = await serve(app);
  const order = segmentEvent('track', { properties: { order_id: 'o1', total: '42.5' } });
  expect((await segmentSendEvent(order, { url: `${url}/actions`, method: 'PUT' }, SECRET)).ok).toBe(true);
  const mapped = {
    url: `${url}/actions`,
    method: 'PUT' as const,
    data: { order: { '@path': '$.properties.order_id' } },
  };
  expect((await segmentSendEvent(segmentEvent('track'), mapped, SECRET)).ok).toBe(true);
  expect(calls).toEqual(['true:properties.total', 'false:']);
});
