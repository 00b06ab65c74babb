import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, ManualClock, type DeliveryRecord, type Emulator } from '@hookgate/emulator';
import { startCaptureReceiver, type CaptureReceiver } from '../helpers/capture-receiver.js';

describe('routing (seed §4.3): integrations, the enabled toggle, schema filtering', () => {
  let receiver: CaptureReceiver;
  let emulator: Emulator;
  const filtered: DeliveryRecord[] = [];
  beforeEach(async () => {
    receiver = await startCaptureReceiver();
    filtered.length = 0;
    emulator = createEmulator({
      clock: new ManualClock(),
      sources: [
        {
          writeKey: 'wk',
          webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/hook` }] },
          schema: { blockedEvents: ['Debug Ping'] },
        },
        { writeKey: 'wk_off', webhooks: { enabled: false, endpoints: [{ url: `${receiver.url}/off` }] } },
        { writeKey: 'wk_none' },
      ],
    });
    emulator.on('filtered', (r) => filtered.push(r));
  });
  afterEach(async () => {
    await emulator.close();
    await receiver.close();
  });

  it('follows the integrations object: All: false blocks unless Webhooks: true; keys are case sensitive', async () => {
    const cases: Array<[string, Record<string, unknown> | undefined, boolean]> = [
      ['default', undefined, true],
      ['other off', { Mixpanel: false }, true],
      ['All false', { All: false }, false],
      ['All false, Webhooks true', { All: false, Webhooks: true }, true],
      ['All false, Webhooks settings object', { All: false, Webhooks: { note: 'x' } }, true],
      ['All false, lowercase webhooks true', { All: false, webhooks: true }, false],
      ['Webhooks false', { Webhooks: false }, false],
      ['lowercase webhooks false', { webhooks: false }, true],
    ];
    const records = cases.map(([name, integrations]) =>
      emulator.track({ userId: 'u1', event: name, ...(integrations ? { integrations } : {}) }),
    );
    await emulator.drain();
    const delivered = receiver.received.map((r) => r.json.event).sort();
    expect(delivered).toEqual(
      cases
        .filter((c) => c[2])
        .map((c) => c[0])
        .sort(),
    );
    for (const [i, [, , passes]] of cases.entries()) {
      expect(records[i]?.state).toBe(passes ? 'delivered' : 'filtered');
    }
    expect(records[2]?.reason).toBe('integrations: All is false and Webhooks is not true');
    expect(records[5]?.reason).toMatch(/case sensitive: "webhooks" names another destination/);
    expect(records[6]?.reason).toBe('integrations: Webhooks is false');
    // A blocked call is in the log and was announced, not silently gone.
    expect(filtered.map((r) => r.id)).toEqual([records[2], records[5], records[6]].map((r) => r?.id));
    expect(emulator.deliveries).toHaveLength(cases.length);
  });

  it('the enabled toggle: a disabled or unconnected destination records calls as filtered; switching it on delivers', async () => {
    const off = emulator.track({ userId: 'u1', event: 'While off' }, { writeKey: 'wk_off' });
    const none = emulator.identify({ userId: 'u1' }, { writeKey: 'wk_none' });
    expect(off.state).toBe('filtered');
    expect(off.reason).toMatch(/disabled for this source \(webhooks\.enabled: false\)/);
    expect(none.reason).toMatch(/no Webhooks destination/);
    emulator.updateSource('wk_off', { webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/off` }] } });
    const on = emulator.track({ userId: 'u1', event: 'While on' }, { writeKey: 'wk_off' });
    await emulator.drain();
    expect(on.state).toBe('delivered');
    expect(receiver.received.map((r) => [r.url, r.json.event])).toEqual([['/off', 'While on']]);
  });

  it('schema filtering: blocked track events are recorded as filtered and still counted in API usage', async () => {
    const blocked = emulator.track({ userId: 'u1', event: 'Debug Ping' });
    const other = emulator.track({ userId: 'u1', event: 'debug ping' }); // names are exact
    emulator.identify({ userId: 'u1' });
    emulator.track({ userId: 'u1', event: 'Signed Up', integrations: { All: false } });
    await emulator.drain();
    expect(blocked.state).toBe('filtered');
    expect(blocked.reason).toBe('blocked by the source\'s schema: track event "Debug Ping" is in schema.blockedEvents');
    expect(other.state).toBe('delivered');
    expect(receiver.received.map((r) => r.json.event ?? r.json.type).sort()).toEqual(['debug ping', 'identify']);
    expect(emulator.usage('wk')).toBe(4);
    expect(emulator.usage('wk_off')).toBe(0);
    expect(emulator.sources[0]?.blockedEvents).toEqual(['Debug Ping']);
  });
});
