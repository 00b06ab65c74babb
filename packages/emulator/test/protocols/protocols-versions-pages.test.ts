// The emulator applies a plan as Segment's Protocols does, and a receiver with the same plan agrees, over
// real HTTP: the oldest version of an event is checked unless the call names another in
// context.protocols.event_version; page and screen calls are checked as "Page Viewed" / "Screen Viewed"
// (the plan's PAGE / SCREEN rule) at both ends; `omit` trims page and screen calls as it does track calls.
import { readFileSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { startPlanPair, type PlanPair } from '../helpers/plan-pair.js';

const schema = (properties: Record<string, unknown>, required: string[]) => ({
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { properties: { type: 'object', properties, required } },
});
const PLAN = [
  // v1 has subtotal; v2, made later, renamed it total.
  {
    type: 'TRACK',
    key: 'Order Completed',
    version: 1,
    jsonSchema: schema({ subtotal: { type: 'number' } }, ['subtotal']),
  },
  { type: 'TRACK', key: 'Order Completed', version: 2, jsonSchema: schema({ total: { type: 'number' } }, ['total']) },
  {
    type: 'PAGE',
    key: null,
    version: 1,
    jsonSchema: schema({ path: { type: 'string' }, plan: { type: 'string' } }, ['plan']),
  },
  { type: 'SCREEN', key: null, version: 1, jsonSchema: schema({ step: { type: 'integer' } }, []) },
];

let pair: PlanPair | undefined;
afterEach(async () => {
  await pair?.close();
  pair = undefined;
});

it('checks the oldest version by default and the version context.protocols.event_version names, at both ends', async () => {
  pair = await startPlanPair(PLAN, { violations: 'block' });
  const { call, seen } = pair;
  // Breaks v1 (no subtotal) though it passes v2: blocked, as Segment would.
  const v1 = await call('track', { event: 'Order Completed', properties: { total: 12 } });
  expect(v1.state).toBe('filtered');
  expect(v1.reason).toBe(
    'blocked by the tracking plan: TRACK "Order Completed" v1 at properties.subtotal: is required (schemaControls.violations: block)',
  );
  const v2 = await call('track', {
    event: 'Order Completed',
    properties: { total: 12 },
    context: { protocols: { event_version: 2 } },
  });
  expect(v2.state).toBe('delivered');
  const old = await call('track', { event: 'Order Completed', properties: { subtotal: 10 } });
  expect(old.state).toBe('delivered');
  // The receiver picks the same versions: what the emulator let through is valid there too.
  expect(seen.map(({ ctx }) => [ctx.planned, ctx.violations])).toEqual([
    [true, []],
    [true, []],
  ]);
});

it('violations: omit trims page and screen calls as track calls, and both ends match them to the same rules', async () => {
  pair = await startPlanPair(PLAN, { violations: 'omit', unplannedProperties: 'omit' });
  const { call, seen } = pair;
  const page = await call('page', { name: 'Pricing', properties: { path: '/pricing', plan: 7, utm: 'x' } });
  expect([page.state, page.reason]).toEqual(['delivered', undefined]);
  const delivered = page.message as { properties?: Record<string, unknown>; context?: { protocols?: unknown } };
  expect(delivered.properties).toEqual({ path: '/pricing' });
  expect(delivered.context?.protocols).toEqual({
    omitted: ['utm'],
    omitted_on_violation: ['plan'],
    violations: [{ type: 'Invalid Type', field: 'properties.plan', description: 'must be string (got integer)' }],
  });
  const screen = await call('screen', { name: 'Checkout', properties: { step: 1.5 } });
  expect(screen.state).toBe('delivered');

  expect(seen).toHaveLength(2);
  const [atPage, atScreen] = seen;
  expect(atPage!.message.type).toBe('page');
  expect(atPage!.ctx.planned).toBe(true);
  // ctx.violations describe the message as delivered (trimmed): plan was omitted, so it is now missing.
  expect(atPage!.ctx.violations).toEqual([
    { path: 'properties.plan', message: 'is required', keyword: 'required', rule: 'PAGE v1' },
  ]);
  expect(atScreen!.message.type).toBe('screen');
  expect(atScreen!.ctx.planned).toBe(true);
});

it("the guide's Order Completed handler survives violations: 'omit' (200, not 500 on every retry)", async () => {
  const guide = readFileSync(new URL('../../../../docs/guides/tracking-plans.md', import.meta.url), 'utf8');
  expect(guide).toContain("if (ctx.violations.length > 0) return console.warn('off-plan order', ctx.violations);");
  const plan: unknown = JSON.parse(
    readFileSync(new URL('../../../../test/fixtures/tracking-plans/public-api-rules.json', import.meta.url), 'utf8'),
  );
  const logged: string[] = [];
  pair = await startPlanPair(
    plan,
    { violations: 'omit' },
    {
      track: (msg, ctx) => {
        // As the guide writes it.
        if (ctx.violations.length > 0) return void logged.push(`off-plan ${ctx.violations[0]!.path}`);
        const properties = msg.properties as { order_id: string; total: number };
        logged.push(`${properties.order_id} ${properties.total.toFixed(2)}`);
      },
    },
  );
  const { call } = pair;
  const trimmed = await call('track', { event: 'Order Completed', properties: { order_id: 'o1', total: '12' } });
  expect([trimmed.state, (trimmed.message as { properties?: unknown }).properties]).toEqual([
    'delivered',
    { order_id: 'o1' },
  ]);
  const whole = await call('track', { event: 'Order Completed', properties: { order_id: 'o2', total: 12 } });
  expect(whole.state).toBe('delivered');
  expect(logged).toEqual(['off-plan properties.total', 'o2 12.00']);
});
