// A tracking plan through the Express adapter, over real HTTP: the options pass through to core, handlers
// keyed by event name get ctx.violations and ctx.planned beside req/res, onViolation runs instead.
import { readFileSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import express from 'express';
import { fixture } from '@hookgate/core';
import { hookgate } from '@hookgate/express';
import { closeAll, post, serve } from './helpers.js';

afterEach(closeAll);
const SECRET = 'whsec_express_tests_3a1f';
const plan: unknown = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/tracking-plans/public-api-rules.json', import.meta.url), 'utf8'),
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
