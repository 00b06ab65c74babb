// A tracking plan through the Hono adapter, over real HTTP: keyed track handlers get ctx.violations and
// ctx.planned; in pass-through use the route reads them from c.get('webhookContext'), and onViolation
// runs instead of the route for a message that breaks the plan.
import { readFileSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { Hono } from 'hono';
import { fixture } from '@hookgate/core';
import { hookgate } from '@hookgate/hono';
import { closeAll, post, SECRET, serve } from './helpers.js';
import { compileTrackingPlan } from '@hookgate/plans';

afterEach(closeAll);
const plan = compileTrackingPlan(
  JSON.parse(
    readFileSync(new URL('../../../test/fixtures/tracking-plans/public-api-rules.json', import.meta.url), 'utf8'),
  ),
);
const good = fixture('track', { event: 'Signed Up', properties: { plan: 'pro' } });
const bad = fixture('track', { event: 'Signed Up', properties: { plan: 'gold' } });

it('runs keyed track handlers with ctx.violations and ctx.planned', async () => {
  const calls: string[] = [];
  const app = new Hono();
  app.post(
    '/webhooks',
    hookgate({
      secret: SECRET,
      trackingPlan: plan,
      on: {
        track: {
          'Signed Up': (_msg, ctx) => void calls.push(`signed-up:${ctx.planned}:${ctx.violations.length}`),
          '*': (msg, ctx) => void calls.push(`other:${msg.event}:${ctx.planned}`),
        },
      },
    }),
  );
  const url = await serve(app);
  expect((await post(`${url}/webhooks`, JSON.stringify(good))).status).toBe(200);
  expect((await post(`${url}/webhooks`, JSON.stringify(fixture('track', { event: 'Coupon Applied' })))).status).toBe(
    200,
  );
  expect(calls).toEqual(['signed-up:true:0', 'other:Coupon Applied:false']);
});

it("pass-through: the route reads violations from c.get('webhookContext'); onViolation runs instead of the route", async () => {
  const calls: string[] = [];
  const app = new Hono();
  app.post('/events', hookgate({ secret: SECRET, trackingPlan: plan }), (c) => {
    const ctx = c.get('webhookContext');
    calls.push(`route:${ctx.planned}:${ctx.violations.map((v) => v.path).join()}`);
    return c.json({ ok: true });
  });
  app.post(
    '/checked',
    hookgate({
      secret: SECRET,
      trackingPlan: plan,
      onViolation: (msg, violations) => void calls.push(`violation:${msg.type}:${violations[0]?.path}`),
    }),
    (c) => {
      calls.push(`checked-route:${c.get('webhook').type}`);
      return c.json({ ok: true });
    },
  );
  const url = await serve(app);
  expect((await post(`${url}/events`, JSON.stringify(good))).status).toBe(200);
  expect((await post(`${url}/events`, JSON.stringify(bad))).status).toBe(200);
  expect((await post(`${url}/checked`, JSON.stringify(good))).status).toBe(200);
  expect((await post(`${url}/checked`, JSON.stringify(bad))).status).toBe(200);
  expect(calls).toEqual([
    'route:true:',
    'route:true:properties.plan',
    'checked-route:track',
    'violation:track:properties.plan',
  ]);
});
