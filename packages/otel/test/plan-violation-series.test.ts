// `hookgate.plan.violations` keeps a bounded set of series whatever the senders send: an event the
// tracking plan names is an attribute value, any other is `(unplanned)`. Before, 2,100 random event
// names filled the SDK's 2,000-series cap and a planned event's violation went to the overflow series.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createReceiver, fixture, sign } from '@hookgate/core';
import { compileTrackingPlan } from '@hookgate/plans';
import { expect, it } from 'vitest';
import { startSdk } from './support/otel-sdk.js';

const SECRET = 'whsec_otel_series_SECRET_5b0e';
const plan: unknown = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/tracking-plans/public-api-rules.json', import.meta.url), 'utf8'),
);

/** A track breaking the plan's COMMON rule (`context.library.name` must be a string). */
function delivery(event: string, properties: Record<string, unknown> = {}) {
  const body = JSON.stringify(
    fixture('track', { messageId: randomUUID(), event, properties, context: { library: { name: 5 } } } as never),
  );
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature': sign(body, SECRET) },
    rawBody: body,
  };
}

it('names planned events only: 2,100 unplanned names are one series, and a planned violation keeps its own', async () => {
  const sdk = startSdk();
  const receiver = createReceiver({
    secret: SECRET,
    trackingPlan: compileTrackingPlan(plan),
    telemetry: sdk.telemetry,
    onMessage() {},
  });
  for (let i = 0; i < 2100; i++) expect((await receiver.handle(delivery(`random ${randomUUID()}`))).status).toBe(200);
  expect((await receiver.handle(delivery('Order Completed', { order_id: 'o1', total: '12' }))).status).toBe(200);

  const points = await sdk.points('hookgate.plan.violations');
  const events = points.map((p) => p.attributes['hookgate.event']);
  expect(new Set(events)).toEqual(new Set(['(unplanned)', 'Order Completed']));
  expect(points.filter((p) => p.attributes['otel.metric.overflow'] !== undefined)).toEqual([]);
  const unplanned = points.filter((p) => p.attributes['hookgate.event'] === '(unplanned)');
  expect(unplanned.reduce((sum, p) => sum + p.value, 0)).toBe(2100);
  // Its two violations: the COMMON rule's and its own rule's (`total` must be a number).
  expect(await sdk.count('hookgate.plan.violations', { 'hookgate.event': 'Order Completed' })).toBe(2);
});
