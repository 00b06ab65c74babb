// The emulator's Webhooks (Actions) destination: settings, routing, the Spec event, retries and final
// statuses, replay and close, against a real HTTP receiver on 127.0.0.1.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, ManualClock, SettingsError, type ActionsSubscription } from '../../src/index.js';
import { startCaptureReceiver, type CaptureReceiver } from '../helpers/capture-receiver.js';

let receiver: CaptureReceiver;
beforeAll(async () => {
  receiver = await startCaptureReceiver();
});
afterAll(() => receiver.close());
beforeEach(() => {
  receiver.received.length = 0;
  receiver.answer(() => 200);
});

const sub = (mapping: Record<string, unknown> = {}, subscribe = 'type = "track"'): ActionsSubscription => ({
  subscribe,
  partnerAction: 'send',
  enabled: true,
  mapping: { url: `${receiver.url}/hook`, method: 'PUT', data: { '@path': '$.' }, ...mapping },
});

function settingsError(subscriptions: unknown, extra: Record<string, unknown> = {}): SettingsError {
  try {
    createEmulator({ sources: [{ writeKey: 'wk', webhooksActions: { subscriptions, ...extra } as never }] });
  } catch (e) {
    expect(e).toBeInstanceOf(SettingsError);
    return e as SettingsError;
  }
  throw new Error('no SettingsError');
}

describe('webhooksActions settings', () => {
  it('names the bad field and the fix', () => {
    expect(settingsError([sub(), sub(), sub(), sub(), sub(), sub()]).setting).toBe(
      'sources[0].webhooksActions.subscriptions',
    );
    expect(settingsError([sub({ method: 'GET' })]).setting).toBe(
      'sources[0].webhooksActions.subscriptions[0].mapping.method',
    );
    expect(settingsError([sub({ url: 'hooks.example.com/x' })]).setting).toBe(
      'sources[0].webhooksActions.subscriptions[0].mapping.url',
    );
    expect(settingsError([sub({ batch_size: 4001 })]).message).toMatch(/from 1 to 4000/);
    expect(settingsError([sub({ headers: { 'X-Signature': 'forged' } })]).setting).toBe(
      'sources[0].webhooksActions.subscriptions[0].mapping.headers["X-Signature"]',
    );
    expect(settingsError([sub({ headers: { 'User-Agent': 'me' } })]).message).toMatch(/sender sets itself/);
    expect(settingsError([{ ...sub(), partnerAction: 'post' }]).setting).toBe(
      'sources[0].webhooksActions.subscriptions[0].partnerAction',
    );
    expect(settingsError([{ ...sub(), subscribe: 'garbage !!' }]).setting).toBe(
      'sources[0].webhooksActions.subscriptions[0].subscribe',
    );
    expect(settingsError([sub({ data: { x: { '@path': 42 } } })]).message).toMatch(/not a valid mapping/);
    expect(settingsError([sub({ enableBatching: true })]).message).toMatch(/did you mean "enable_batching"/);
    expect(settingsError([sub()], { batchWindowMs: -1 }).setting).toBe('sources[0].webhooksActions.batchWindowMs');
    expect(settingsError([sub()], { sharedSecret: '' }).setting).toBe('sources[0].webhooksActions.sharedSecret');
    // A pasted Content-Type: application/json is what Segment sends anyway: accepted.
    expect(() =>
      createEmulator({
        sources: [
          {
            writeKey: 'wk',
            webhooksActions: { subscriptions: [sub({ headers: { 'Content-Type': 'application/json' } })] },
          },
        ],
      }),
    ).not.toThrow();
  });

  it('rejects a bad responsePolicy.actions', () => {
    expect(() => createEmulator({ responsePolicy: { actions: { retryStatuses: [503] } } })).toThrow(
      /responsePolicy.actions.retryStatuses/,
    );
  });
});

describe('routing a call', () => {
  it('builds the whole Segment event: Spec common fields from the call and the receipt time', async () => {
    const clock = new ManualClock({ start: Date.parse('2026-11-25T12:00:00.000Z') });
    const emulator = createEmulator({
      clock,
      sources: [{ writeKey: 'wk', webhooksActions: { subscriptions: [sub()] } }],
    });
    const record = emulator.track({
      userId: 'u1',
      event: 'Signed Up',
      timestamp: '2026-11-25T11:59:00+01:00',
      properties: { plan: 'pro' },
    });
    await emulator.drain();
    expect(record.actions).toMatchObject({ subscription: 1, method: 'PUT', batchSize: 1, batch: false });
    const event = receiver.received[0]!.json;
    expect(event).toEqual({
      userId: 'u1',
      event: 'Signed Up',
      properties: { plan: 'pro' },
      type: 'track',
      messageId: expect.stringMatching(/^emu-[0-9a-f-]{36}$/),
      timestamp: '2026-11-25T10:59:00.000Z',
      originalTimestamp: '2026-11-25T10:59:00.000Z',
      sentAt: '2026-11-25T12:00:00.000Z',
      receivedAt: '2026-11-25T12:00:00.000Z',
      context: {},
      integrations: {},
    });
    await emulator.close();
  });

  it('matches with FQL, honours integrations and says why nothing was sent', async () => {
    const emulator = createEmulator({
      sources: [
        {
          writeKey: 'wk',
          webhooksActions: {
            subscriptions: [
              sub({}, 'type = "track" and event = "Order Completed"'),
              sub({ method: 'PATCH' }, 'type = "identify"'),
            ],
          },
        },
      ],
    });
    expect(emulator.track({ userId: 'u1', event: 'Order Completed' }).actions?.subscription).toBe(1);
    expect(emulator.identify({ userId: 'u1', traits: { a: 1 } }).actions?.method).toBe('PATCH');
    const none = emulator.track({ userId: 'u1', event: 'Other' });
    expect(none.state).toBe('filtered');
    expect(none.reason).toMatch(/no enabled Webhooks \(Actions\) subscription matches this track event/);
    const off = emulator.track({ userId: 'u1', event: 'Order Completed', integrations: { All: false } });
    expect(off.reason).toMatch(/integrations/);
    expect(
      emulator.track({
        userId: 'u1',
        event: 'Order Completed',
        integrations: { All: false, 'Webhooks (Actions)': true },
      }).actions,
    ).toBeDefined();
    await emulator.drain();
    expect(receiver.received.map((r) => r.method)).toEqual(['PUT', 'PATCH', 'PUT']);
    await emulator.close();
  });

  it('sends an empty, unsigned request for a matched event whose data comes out empty, as Segment does', async () => {
    const emulator = createEmulator({
      sources: [
        {
          writeKey: 'wk',
          webhooksActions: {
            sharedSecret: 's3cret',
            subscriptions: [sub({ data: { '@path': '$.properties.missing' } })],
          },
        },
      ],
    });
    const record = emulator.track({ userId: 'u1', event: 'E' });
    expect(record.state).toBe('pending');
    await emulator.drain();
    expect(record.state).toBe('delivered');
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.method).toBe('PUT');
    expect(receiver.received[0]!.body.length).toBe(0);
    expect(receiver.received[0]!.headers['x-signature']).toBeUndefined();
    // Replayed as it was: another empty, unsigned request.
    const again = emulator.replay(record.id);
    await emulator.drain();
    expect(again.state).toBe('delivered');
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.body.length).toBe(0);
    await emulator.close();
  });

  it('records a matched event whose mapping makes no request, with the reason', async () => {
    const emulator = createEmulator({
      sources: [{ writeKey: 'wk', webhooksActions: { subscriptions: [sub({ data: { '@path': '$.event' } })] } }],
    });
    const record = emulator.track({ userId: 'u1', event: 'E' });
    expect(record.state).toBe('filtered');
    expect(record.reason).toMatch(/data resolved to a string; Segment sends only an object/);
    expect(() => emulator.replay(record.id)).toThrow(/made no request/);
    await emulator.close();
  });

  it('sends classic and Actions side by side when a source has both', async () => {
    const emulator = createEmulator({
      sources: [
        {
          writeKey: 'wk',
          webhooks: { endpoints: [{ url: `${receiver.url}/classic` }] },
          webhooksActions: { subscriptions: [sub()] },
        },
      ],
    });
    const classic = emulator.track({ userId: 'u1', event: 'E' });
    expect(classic.actions).toBeUndefined();
    await emulator.drain();
    expect(receiver.received.map((r) => `${r.method} ${r.url} ${r.headers['user-agent']}`).sort()).toEqual([
      'POST /classic Segment.io/1.0',
      'PUT /hook Segment (Actions)',
    ]);
    await emulator.close();
  });
});

describe('answers, retries and final statuses (Segment: 5xx but 501/505, and 408/410/429/460 retried)', () => {
  const run = async (status: number) => {
    const clock = new ManualClock();
    receiver.answer(() => status);
    const emulator = createEmulator({
      clock,
      retry: { jitter: 'none' },
      sources: [{ writeKey: 'wk', webhooksActions: { subscriptions: [sub()] } }],
    });
    const record = emulator.track({ userId: 'u1', event: 'E' });
    await clock.advance(1000);
    const attempts = receiver.received.length;
    await emulator.close();
    receiver.received.length = 0;
    return { attempts, record };
  };

  it.each([410, 460, 429, 500, 503])('%i is retried', async (status) => {
    const { attempts } = await run(status);
    expect(attempts).toBeGreaterThan(1);
  });

  it.each([400, 404, 501, 505])('%i fails at once', async (status) => {
    const { attempts, record } = await run(status);
    expect(attempts).toBe(1);
    expect(record.state).toBe('failed');
  });

  it('is settable with responsePolicy.actions', async () => {
    const clock = new ManualClock();
    receiver.answer(() => 501);
    const emulator = createEmulator({
      clock,
      retry: { jitter: 'none' },
      responsePolicy: { actions: { finalStatuses: [] } },
      sources: [{ writeKey: 'wk', webhooksActions: { subscriptions: [sub()] } }],
    });
    emulator.track({ userId: 'u1', event: 'E' });
    await clock.advance(1000);
    expect(receiver.received.length).toBeGreaterThan(1);
    await emulator.close();
  });
});

describe('replay and close', () => {
  it('a replay sends the same method, URL, body and signature again', async () => {
    const emulator = createEmulator({
      sources: [{ writeKey: 'wk', webhooksActions: { sharedSecret: 's', subscriptions: [sub({ method: 'PATCH' })] } }],
    });
    const record = emulator.track({ userId: 'u1', event: 'E' });
    await emulator.drain();
    const again = emulator.replay(record.id);
    await emulator.drain();
    expect(again.actions).toEqual(record.actions);
    const [a, b] = receiver.received;
    expect(b!.method).toBe('PATCH');
    expect(b!.body.equals(a!.body)).toBe(true);
    expect(b!.headers['x-signature']).toBe(a!.headers['x-signature']);
    await emulator.close();
  });

  it('close() fails the events still in an open batch: nothing is lost', async () => {
    const emulator = createEmulator({
      sources: [
        { writeKey: 'wk', webhooksActions: { subscriptions: [sub({ enable_batching: true, batch_size: 50 })] } },
      ],
    });
    const waiting = emulator.track({ userId: 'u1', event: 'E' });
    expect(waiting.reason).toMatch(/waits in the open batch of subscription 1/);
    const { pending } = await emulator.close();
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({
      state: 'failed',
      reason: 'emulator closed before delivery',
      actions: { batch: true, batchSize: 1 },
    });
    expect(receiver.received).toHaveLength(0);
  });
});

describe('emulator.sources', () => {
  it('shows the Actions subscriptions without secrets, URLs masked', async () => {
    const emulator = createEmulator({
      sources: [
        {
          writeKey: 'wk',
          webhooksActions: {
            sharedSecret: 'never-shown',
            subscriptions: [
              sub({
                url: 'https://user:pa55word@hooks.example.com/x?token=abc',
                enable_batching: true,
                batch_size: 10,
              }),
              { ...sub(), name: 'Second', enabled: false },
            ],
          },
        },
      ],
    });
    const view = emulator.sources[0]!.webhooksActions!;
    expect(view).toMatchObject({ enabled: true, signed: true, batchWindowMs: 10_000 });
    expect(view.subscriptions[0]).toMatchObject({
      number: 1,
      subscribe: 'type = "track"',
      method: 'PUT',
      batchSize: 10,
      enabled: true,
    });
    expect(view.subscriptions[0]!.url).not.toContain('pa55word');
    expect(view.subscriptions[0]!.url).not.toContain('abc');
    expect(view.subscriptions[1]).toMatchObject({ number: 2, name: 'Second', enabled: false });
    expect(JSON.stringify(emulator.sources)).not.toContain('never-shown');
    emulator.updateSource('wk', { webhooksActions: { enabled: false, subscriptions: [] } });
    expect(emulator.sources[0]!.webhooksActions).toMatchObject({ enabled: false, signed: false, subscriptions: [] });
    expect(emulator.track({ userId: 'u1', event: 'E' }).reason).toMatch(/webhooksActions.enabled: false/);
    await emulator.close();
  });
});
