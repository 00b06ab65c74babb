// A source with a tracking plan and Segment's schema controls, over real HTTP: calls posted to the intake,
// delivered to a real hookgate receiver enforcing the same plan (which verifies every signature, so what is
// delivered is what is signed). Blocked events are filtered records naming the rule and path; omitted
// properties and traits go to context.protocols.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, SettingsError, type SchemaControls } from '../../src/index.js';
import { startPlanPair, type PlanPair } from '../helpers/plan-pair.js';

const plan: unknown = JSON.parse(
  readFileSync(new URL('../../../../test/fixtures/tracking-plans/public-api-rules.json', import.meta.url), 'utf8'),
);

let pair: PlanPair | undefined;
let seen: PlanPair['seen'] = [];
afterEach(async () => {
  await pair?.close();
  pair = undefined;
  seen = [];
});

async function start(schemaControls?: SchemaControls): Promise<void> {
  pair = await startPlanPair(plan, schemaControls);
  seen = pair.seen;
}

const track = (event: string, properties: Record<string, unknown>) => pair!.call('track', { event, properties });

describe('schema controls', () => {
  it('forward (default): everything is delivered; violations are listed in context.protocols', async () => {
    await start();
    const record = await track('Order Completed', { order_id: 'o1', total: '12' });
    expect(record.state).toBe('delivered');
    await track('Coupon Applied', { code: 'X' });
    expect(seen.map((s) => s.message.type === 'track' && s.message.event)).toEqual([
      'Order Completed',
      'Coupon Applied',
    ]);
    expect((seen[0]!.message as { context?: { protocols?: unknown } }).context?.protocols).toEqual({
      violations: [{ type: 'Invalid Type', field: 'properties.total', description: 'must be number (got string)' }],
    });
    expect(seen[0]!.ctx.violations.map((v) => v.path)).toEqual(['properties.total']);
    expect((seen[1]!.message as { context?: unknown }).context).toBeUndefined();
  });

  it('unplannedEvents: block filters unplanned track events, naming the event', async () => {
    await start({ unplannedEvents: 'block' });
    const record = await track('Coupon Applied', { code: 'X' });
    expect(record.state).toBe('filtered');
    expect(record.reason).toBe(
      'blocked by the tracking plan: track event "Coupon Applied" is not in the plan (schemaControls.unplannedEvents: block)',
    );
    expect((await track('Signed Up', { plan: 'pro' })).state).toBe('delivered');
    expect(seen).toHaveLength(1);
  });

  it('unplannedProperties: omit removes them and lists them in context.protocols.omitted; the receiver verifies the smaller body', async () => {
    await start({ unplannedProperties: 'omit' });
    const record = await track('Signed Up', { plan: 'pro', newProperty: 1, utm: 'x' });
    expect(record.state).toBe('delivered');
    expect(seen[0]!.message).toMatchObject({
      properties: { plan: 'pro' },
      context: { protocols: { omitted: ['newProperty', 'utm'] } },
    });
    expect(Object.keys((seen[0]!.message as { properties: object }).properties)).toEqual(['plan']);
  });

  it('violations: block filters the event, naming the rule and the path', async () => {
    await start({ violations: 'block' });
    const record = await track('Order Completed', { order_id: 'o1', total: '12' });
    expect(record.state).toBe('filtered');
    expect(record.reason).toBe(
      'blocked by the tracking plan: TRACK "Order Completed" v1 at properties.total: must be number (got string) (schemaControls.violations: block)',
    );
    expect(seen).toEqual([]);
  });

  it('violations: omit removes the offending properties and lists them in omitted_on_violation', async () => {
    await start({ violations: 'omit' });
    await track('Order Completed', { order_id: 'o1', total: 12, currency: 'GBP' });
    expect(seen[0]!.message).toMatchObject({
      properties: { order_id: 'o1', total: 12 },
      context: {
        protocols: {
          omitted_on_violation: ['currency'],
          violations: [{ type: 'Invalid Enum', field: 'properties.currency' }],
        },
      },
    });
  });

  it('unplannedTraits: omit applies to identify against the IDENTIFY rule', async () => {
    await start({ unplannedTraits: 'omit' });
    await pair!.call('identify', { traits: { email: 'ada@example.com', first_name: 'Ada' } });
    expect(seen[0]!.message).toMatchObject({
      traits: { email: 'ada@example.com' },
      context: { protocols: { omitted: ['first_name'] } },
    });
  });

  it('refuses bad settings naming the setting', () => {
    const source = { writeKey: 'k', webhooks: { enabled: true, endpoints: [] } };
    expect(() => createEmulator({ sources: [{ ...source, trackingPlan: { rules: [{ type: 'TRAK' }] } }] })).toThrow(
      SettingsError,
    );
    expect(() => createEmulator({ sources: [{ ...source, trackingPlan: { rules: [{ type: 'TRAK' }] } }] })).toThrow(
      /sources\[0\]\.trackingPlan\.rules\[0\]\.type/,
    );
    expect(() =>
      createEmulator({ sources: [{ ...source, trackingPlan: plan, schemaControls: { violations: 'drop' } as never }] }),
    ).toThrow(/schemaControls\.violations: must be 'forward' or 'block' or 'omit'/);
    expect(() => createEmulator({ sources: [{ ...source, schemaControls: {} }] })).toThrow(/set trackingPlan too/);
  });

  it('a hostile call cannot grow the delivery: context.protocols.violations is cut, with violation_count', async () => {
    // An enum of long values on every item, and 10,000 items breaking it: 10,000 violations, each
    // naming the whole enum (25 MB written out in full, past the receiver's 1 MB body limit).
    const values = Array.from({ length: 40 }, (_, i) => `${i}`.padEnd(60, 'v'));
    const hostile = [
      {
        type: 'TRACK',
        key: 'Bulk',
        jsonSchema: { properties: { properties: { properties: { list: { items: { enum: values } } } } } },
      },
    ];
    pair = await startPlanPair(hostile);
    seen = pair.seen;
    const record = await track('Bulk', { list: new Array(10_000).fill(0) });
    expect(record.state).toBe('delivered');
    expect(record.attempts.at(-1)?.status).toBe(200);
    expect(Buffer.byteLength(record.body)).toBeLessThan(64 * 1024);
    const protocols = (seen[0]!.message as { context?: { protocols?: Record<string, unknown> } }).context?.protocols;
    const written = protocols?.violations as { type: string; field: string; description: string }[];
    expect(written.length).toBeGreaterThan(0);
    expect(written.length).toBeLessThanOrEqual(50);
    expect(written[0]).toMatchObject({ type: 'Invalid Enum', field: 'properties.list.0' });
    expect(written.every((v) => v.description.length <= 256)).toBe(true);
    expect(protocols?.violation_count).toBe(10_000);
  });
});
