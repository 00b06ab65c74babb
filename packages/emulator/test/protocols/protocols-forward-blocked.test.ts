// Schema controls beyond the Webhooks destination, over real HTTP: blocked events forwarded to another
// source (Segment's "forward blocked events to a source"), and the Webhooks (Actions) destination
// honouring the same controls (blocking, omitting, context.protocols) on the whole event it sends.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';
import { createEmulator, type Emulator, type SchemaControls } from '../../src/index.js';

const plan: unknown = JSON.parse(
  readFileSync(new URL('../../../../test/fixtures/tracking-plans/public-api-rules.json', import.meta.url), 'utf8'),
);

let server: RunningServer | undefined;
let emulator: Emulator | undefined;
let received: { path: string; body: Record<string, unknown> }[] = [];

afterEach(async () => {
  await emulator?.close();
  await server?.close();
  received = [];
});

async function startReceiver(): Promise<string> {
  server = await startHttpServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: JSON.parse(text) as Record<string, unknown> });
      res.end('ok');
    });
  });
  return server.url;
}

const webhooks = (url: string) => ({ enabled: true, endpoints: [{ url }], sharedSecret: 's' });

describe('schemaControls.forwardBlockedTo', () => {
  it('a blocked event is delivered by the named source as it was sent; the blocked record says where it went', async () => {
    const url = await startReceiver();
    emulator = createEmulator({
      sources: [
        {
          writeKey: 'wk_app',
          webhooks: webhooks(`${url}/app`),
          trackingPlan: plan,
          schemaControls: { violations: 'block', unplannedProperties: 'omit', forwardBlockedTo: 'wk_quarantine' },
        },
        { writeKey: 'wk_quarantine', name: 'Quarantine', webhooks: webhooks(`${url}/quarantine`) },
      ],
    });
    const blocked = emulator.track(
      { userId: 'u1', event: 'Order Completed', properties: { order_id: 'o1', total: '12', extra: 1 } },
      { writeKey: 'wk_app' },
    );
    await emulator.drain();
    expect(blocked.state).toBe('filtered');
    expect(blocked.reason).toBe(
      'blocked by the tracking plan: TRACK "Order Completed" v1 at properties.total: must be number (got string) (schemaControls.violations: block); forwarded to Quarantine (schemaControls.forwardBlockedTo)',
    );
    const forwarded = emulator.deliveries.filter((d) => d.writeKey === 'wk_quarantine');
    expect(forwarded.map((d) => d.state)).toEqual(['delivered']);
    expect(received.map((r) => r.path)).toEqual(['/quarantine']);
    // As it was sent: nothing omitted, no context.protocols.
    expect(received[0]!.body).toMatchObject({
      event: 'Order Completed',
      properties: { order_id: 'o1', total: '12', extra: 1 },
    });
    expect((received[0]!.body.context as Record<string, unknown> | undefined)?.protocols).toBeUndefined();

    // A valid event is delivered by its own source, not forwarded.
    emulator.track(
      { userId: 'u1', event: 'Order Completed', properties: { order_id: 'o2', total: 3 } },
      { writeKey: 'wk_app' },
    );
    await emulator.drain();
    expect(received.map((r) => r.path)).toEqual(['/quarantine', '/app']);
  });

  it('is not forwarded twice (two sources forwarding to each other), nor to a source that does not exist', async () => {
    const url = await startReceiver();
    const controls = (to: string): SchemaControls => ({ unplannedEvents: 'block', forwardBlockedTo: to });
    emulator = createEmulator({
      sources: [
        { writeKey: 'wk_a', webhooks: webhooks(`${url}/a`), trackingPlan: plan, schemaControls: controls('wk_b') },
        { writeKey: 'wk_b', webhooks: webhooks(`${url}/b`), trackingPlan: plan, schemaControls: controls('wk_a') },
        { writeKey: 'wk_c', webhooks: webhooks(`${url}/c`), trackingPlan: plan, schemaControls: controls('wk_gone') },
      ],
    });
    const first = emulator.track({ userId: 'u1', event: 'Coupon Applied' }, { writeKey: 'wk_a' });
    await emulator.drain();
    expect(first.reason).toMatch(/; forwarded to source .*\(4 chars\) \(schemaControls\.forwardBlockedTo\)$/);
    expect(first.reason).not.toContain('wk_b'); // a write key is not printed
    const atB = emulator.deliveries.filter((d) => d.writeKey === 'wk_b');
    expect(atB.map((d) => [d.state, d.reason?.includes('forwarded')])).toEqual([['filtered', false]]);
    const lost = emulator.track({ userId: 'u1', event: 'Coupon Applied' }, { writeKey: 'wk_c' });
    expect(lost.reason).toMatch(/; not forwarded: no source has the write key schemaControls\.forwardBlockedTo names$/);
    await emulator.drain();
    expect(received).toEqual([]);
  });

  it('refuses its own write key and a value that is not a write key, naming the setting', () => {
    const source = { writeKey: 'k', webhooks: { enabled: true, endpoints: [] }, trackingPlan: plan };
    expect(() => createEmulator({ sources: [{ ...source, schemaControls: { forwardBlockedTo: 'k' } }] })).toThrow(
      /sources\[0\]\.schemaControls\.forwardBlockedTo: is this source's own write key/,
    );
    expect(() =>
      createEmulator({ sources: [{ ...source, schemaControls: { forwardBlockedTo: 7 as never } }] }),
    ).toThrow(/sources\[0\]\.schemaControls\.forwardBlockedTo: must be the write key of another source/);
  });
});

describe('the Webhooks (Actions) destination honours the schema controls', () => {
  const actions = (url: string) => ({
    sharedSecret: 's',
    subscriptions: [
      {
        subscribe: 'type = "track"',
        partnerAction: 'send' as const,
        mapping: { url: `${url}/actions`, method: 'POST', data: { '@path': '$.' } },
      },
    ],
  });

  it('omits unplanned properties and reports violations in context.protocols of the whole event', async () => {
    const url = await startReceiver();
    emulator = createEmulator({
      sources: [
        {
          writeKey: 'wk_actions',
          webhooksActions: actions(url),
          trackingPlan: plan,
          schemaControls: { unplannedProperties: 'omit' },
        },
      ],
    });
    emulator.track({ userId: 'u1', event: 'Order Completed', properties: { order_id: 'o1', total: '12', utm: 'x' } });
    await emulator.drain();
    expect(received).toHaveLength(1);
    expect(received[0]!.body).toMatchObject({
      event: 'Order Completed',
      properties: { order_id: 'o1', total: '12' },
      context: {
        protocols: {
          omitted: ['utm'],
          violations: [{ type: 'Invalid Type', field: 'properties.total', description: 'must be number (got string)' }],
        },
      },
    });
    expect(Object.keys(received[0]!.body.properties as object)).toEqual(['order_id', 'total']);
  });

  it('blocks what the controls block (no request), and forwards it', async () => {
    const url = await startReceiver();
    emulator = createEmulator({
      sources: [
        {
          writeKey: 'wk_actions',
          webhooksActions: actions(url),
          trackingPlan: plan,
          schemaControls: { unplannedEvents: 'block', forwardBlockedTo: 'wk_quarantine' },
        },
        { writeKey: 'wk_quarantine', name: 'Quarantine', webhooks: webhooks(`${url}/quarantine`) },
      ],
    });
    const record = emulator.track({ userId: 'u1', event: 'Coupon Applied' }, { writeKey: 'wk_actions' });
    await emulator.drain();
    expect(record.state).toBe('filtered');
    expect(record.reason).toBe(
      'blocked by the tracking plan: track event "Coupon Applied" is not in the plan (schemaControls.unplannedEvents: block); forwarded to Quarantine (schemaControls.forwardBlockedTo)',
    );
    expect(received.map((r) => r.path)).toEqual(['/quarantine']);
  });
});
