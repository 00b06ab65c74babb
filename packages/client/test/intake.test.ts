// The client against the emulator's intake: every call type reaches a hookgate receiver, verified,
// in the seed's §2.2 shape (client → intake → delivery engine → receiver, all over real HTTP).
import { createReceiver, parseMessage, toNodeListener, type WebhookMessage } from '@hookgate/core';
import { createEmulator, type Emulator, type IntakeServer } from '@hookgate/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../../test/helpers/servers.js';
import { Analytics } from '../src/index.js';

const SECRET = 'client-intake-secret';
const WRITE_KEY = 'wk_client_test';

describe('client → emulator intake → hookgate receiver', () => {
  const seen: Array<{ message: WebhookMessage; form: string }> = [];
  let receiver: RunningServer;
  let emulator: Emulator;
  let intake: IntakeServer;

  beforeAll(async () => {
    const r = createReceiver({
      secret: SECRET,
      onMessage: (message, ctx) => {
        seen.push({ message, form: ctx.verification.form });
      },
    });
    receiver = await startHttpServer(toNodeListener(r));
    emulator = createEmulator({
      sources: [
        {
          writeKey: WRITE_KEY,
          webhooks: { enabled: true, sharedSecret: SECRET, endpoints: [{ url: `${receiver.url}/hooks` }] },
        },
      ],
    });
    intake = await emulator.listen();
  });

  afterAll(async () => {
    await intake?.close();
    await emulator?.close();
    await receiver?.close();
  });

  it('delivers every call type with the seed shape, signed, after one batch', async () => {
    const batches: number[] = [];
    const analytics = new Analytics(WRITE_KEY, {
      endpoint: intake.url,
      flushAt: 20,
      onFlush: (r) => batches.push(r.count),
    });
    analytics.identify({ userId: 'u1', traits: { email: 'ada@example.com', plan: 'pro' } });
    analytics.track({ userId: 'u1', event: 'Order Completed', properties: { revenue: 42.5 } });
    analytics.page({
      userId: 'u1',
      name: 'Pricing',
      properties: { url: 'https://example.com/pricing', title: 'Pricing' },
    });
    analytics.screen({ userId: 'u1', name: 'Home', context: { os: { name: 'iOS', version: '17.1' } } });
    analytics.group({ userId: 'u1', groupId: 'acme', traits: { employees: 42 } });
    analytics.alias({ previousId: 'anon_1', userId: 'u1' });
    await analytics.close();
    await emulator.drain();

    expect(batches).toEqual([6]);
    const records = emulator.deliveries;
    expect(records.map((r) => [r.type, r.state])).toEqual([
      ['identify', 'delivered'],
      ['track', 'delivered'],
      ['page', 'delivered'],
      ['screen', 'delivered'],
      ['group', 'delivered'],
      ['alias', 'delivered'],
    ]);
    const byType = new Map(seen.map((s) => [s.message.type, s]));
    expect([...byType.keys()].sort()).toEqual(['alias', 'group', 'identify', 'page', 'screen', 'track']);
    for (const { message, form } of seen) {
      expect(form).toBe('raw'); // the receiver verified the exact bytes sent
      expect(() => parseMessage(message, { strictTimestamps: true })).not.toThrow();
    }
    const pick = <T extends WebhookMessage['type']>(t: T) =>
      byType.get(t)!.message as Extract<WebhookMessage, { type: T }>;
    expect(pick('identify')).toMatchObject({
      version: 1,
      userId: 'u1',
      traits: { email: 'ada@example.com', plan: 'pro' },
    });
    expect(pick('track')).toMatchObject({
      version: 1,
      userId: 'u1',
      event: 'Order Completed',
      properties: { revenue: 42.5 },
    });
    expect(pick('page')).toMatchObject({
      version: 1,
      userId: 'u1',
      properties: { url: 'https://example.com/pricing', title: 'Pricing' },
    });
    expect(pick('screen')).toMatchObject({ version: 1, userId: 'u1', name: 'Home' });
    expect(pick('group')).toMatchObject({ version: 1, userId: 'u1', groupId: 'acme', traits: { employees: 42 } });
    const alias = pick('alias');
    expect(alias).toMatchObject({ version: 1, 'Previous ID': 'anon_1', 'User ID': 'u1' });
    expect(alias).not.toHaveProperty('userId');
  });
});
