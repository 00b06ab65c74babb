// The intake's fast paths keep every behaviour: filtered calls are recorded (body built when read),
// the 32 KB check measures exactly where it matters, canonical timestamps pass unchanged.
// Real intake and receiver on 127.0.0.1.
import fc from 'fast-check';
import { messageIssues } from '@hookgate/core';
import { normalizeTimestamp } from '@hookgate/core/calls';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as publicApi from '../../src/index.js';
import { createEmulator, MAX_CALL_BYTES, type Emulator } from '../../src/index.js';
import { listenIntake, type IntakeServer } from '../../src/intake/index.js';
import { jsonSizeBound } from '../../src/intake/json-size-bound.js';
import { callToMessage } from '../../src/routing/transform.js';
import { startCaptureReceiver, type CaptureReceiver } from '../helpers/capture-receiver.js';

const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
let receiver: CaptureReceiver;
let emulator: Emulator;
let intake: IntakeServer;

beforeEach(async () => {
  receiver = await startCaptureReceiver();
  emulator = createEmulator({
    sources: [{ writeKey: 'wk_off', webhooks: { enabled: false, endpoints: [{ url: `${receiver.url}/hook` }] } }],
  });
  intake = await listenIntake(emulator);
});

afterEach(async () => {
  await intake.close();
  await emulator.close();
  await receiver.close();
});

async function post(path: string, body: unknown) {
  const res = await fetch(`${intake.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: basic('wk_off') },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as { code?: string; message?: string; issues?: Array<{ path: string; message: string }> },
  };
}

describe('filtered calls through the intake', () => {
  it('records every call of a batch to a disabled source as filtered, builds the seed-shaped message on read, and replays it once enabled', async () => {
    const batch = Array.from({ length: 50 }, (_, i) => ({
      type: 'track',
      userId: `u${i}`,
      event: 'Order Completed',
      timestamp: '2009-11-10T23:00:00+0000',
      properties: { i, note: 'é—✓' },
      context: { ip: '203.0.113.9' },
    }));
    const r = await post('/v1/batch', {
      batch,
      context: { library: { name: 'test', version: '1' } },
      integrations: { Mixpanel: false },
    });
    expect(r.status).toBe(200);
    const log = emulator.deliveries;
    expect(log).toHaveLength(50);
    expect(emulator.usage('wk_off')).toBe(50);
    for (const [i, record] of log.entries()) {
      expect(record.state).toBe('filtered');
      expect(record.reason).toBe('the Webhooks destination is disabled for this source (webhooks.enabled: false)');
      const message = record.message as unknown as Record<string, unknown>;
      expect(messageIssues(message, { strictTimestamps: true })).toEqual([]);
      expect(message).toEqual({
        version: 1,
        type: 'track',
        userId: `u${i}`,
        timestamp: '2009-11-10T23:00:00.000Z',
        event: 'Order Completed',
        properties: { i, note: 'é—✓' },
        context: { library: { name: 'test', version: '1' }, ip: '203.0.113.9' },
      });
      expect(record.body).toBe(JSON.stringify(message));
    }
    // Nothing was sent; enabling the source and replaying sends the exact recorded bytes.
    expect(receiver.received).toHaveLength(0);
    emulator.updateSource('wk_off', { webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/hook` }] } });
    const again = emulator.replay(log[7]!.id);
    await emulator.drain();
    expect(again.state).toBe('delivered');
    expect(receiver.received.map((x) => x.text)).toEqual([log[7]!.body]);
  });

  it('keeps what a filtered call said even when the intake gets later requests (bytes kept, not objects)', async () => {
    await post('/v1/track', {
      userId: 'u1',
      event: 'First',
      properties: { n: 1 },
      writeKey: 'wk_off',
      sentAt: '2026-01-01T00:00:00.000Z',
    });
    await post('/v1/batch', { batch: [{ type: 'identify', userId: 'u2', traits: { plan: 'pro' } }] });
    const [first, second] = emulator.deliveries;
    expect(first!.message).toMatchObject({ type: 'track', userId: 'u1', event: 'First', properties: { n: 1 } });
    expect(first!.message).not.toHaveProperty('writeKey');
    expect(first!.message).not.toHaveProperty('sentAt');
    expect(second!.message).toMatchObject({ type: 'identify', userId: 'u2', traits: { plan: 'pro' } });
  });
});

describe('the 32 KB check, measured cheaply and exactly', () => {
  it('refuses a call whose numbers grow past the limit when serialized (1e20 is 4 bytes raw, 21 in JSON.stringify), naming its index', async () => {
    const numbers = Array.from({ length: 2000 }, () => '1e20').join(',');
    const raw = `{"batch":[{"type":"track","userId":"u1","event":"Fine"},{"type":"track","userId":"u1","event":"N","properties":{"n":[${numbers}]}}]}`;
    expect(Buffer.byteLength(raw)).toBeLessThan(MAX_CALL_BYTES);
    const r = await post('/v1/batch', raw);
    // The call over the limit is refused alone; the other one is accepted (200, the refusal named).
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, accepted: 1 });
    expect((r.body as unknown as { refused: unknown }).refused).toEqual([
      {
        index: 1,
        recordId: expect.any(String),
        issues: [
          { path: '$.batch[1]', message: expect.stringMatching(/^is 4\d{4} bytes, over the limit of 32768 bytes/) },
        ],
      },
    ]);
    expect(emulator.deliveries.map((d) => [d.type, d.state])).toEqual([
      ['track', 'filtered'],
      ['track', 'filtered'],
    ]);
    expect(emulator.deliveries[1]!.reason).toMatch(/^refused by the intake: \$\.batch\[1\] is 4\d{4} bytes/);
    // Alone in its batch, it is refused with 400.
    const alone = await post(
      '/v1/batch',
      `{"batch":[{"type":"track","userId":"u1","event":"N","properties":{"n":[${numbers}]}}]}`,
    );
    expect(alone.status).toBe(400);
    expect(alone.body.code).toBe('call_too_large');
  });

  it('accepts a call whose rough bound is over the limit but whose exact size is not', async () => {
    // 20,000 ASCII characters: the bound (6 bytes per character) is over 32 KB, the exact size is not.
    const call = { type: 'track', userId: 'u1', event: 'Long', properties: { text: 'a'.repeat(20_000) } };
    expect(jsonSizeBound(call, MAX_CALL_BYTES)).toBe(Infinity);
    expect((await post('/v1/batch', { batch: [call] })).status).toBe(200);
    expect(emulator.deliveries).toHaveLength(1);
  });

  it('jsonSizeBound is never below the exact size (property-based), and Infinity past the limit', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 1, max: 4096 }), (value, limit) => {
        const exact = Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
        const bound = jsonSizeBound(value, limit);
        expect(bound === Infinity || bound <= limit).toBe(true);
        if (bound !== Infinity) expect(bound).toBeGreaterThanOrEqual(exact);
        if (exact > limit) expect(bound).toBe(Infinity);
      }),
      { numRuns: 500 },
    );
    expect(jsonSizeBound({ when: new Date(0) }, 1000)).toBe(Infinity); // not plain JSON: measured exactly
    expect(jsonSizeBound({ n: 10n }, 1000)).toBe(Infinity);
  });
});

describe('timestamps already in the sender form', () => {
  it('pass unchanged, and every other form gives what normalizeTimestamp gives (property-based)', () => {
    const opts = { includeIds: false, anonymousCalls: 'filter' as const };
    const at = (timestamp: string) => {
      const r = callToMessage({ type: 'track', userId: 'u1', event: 'E', timestamp }, 0, opts);
      return r.ok ? r.message.timestamp : undefined;
    };
    expect(at('2026-11-21T12:00:00.000Z')).toBe('2026-11-21T12:00:00.000Z');
    expect(at('2026-02-30T00:00:00.000Z')).toBe('2026-03-02T00:00:00.000Z'); // rolled over, as Date.parse does
    expect(at('2026-01-01T24:00:00.000Z')).toBe('2026-01-02T00:00:00.000Z');
    expect(at('2009-11-10T23:00:00+0000')).toBe('2009-11-10T23:00:00.000Z');
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
    const stamp = fc
      .tuple(
        fc.integer({ min: 0, max: 9999 }),
        two(13),
        two(32),
        two(24),
        two(60),
        two(60),
        fc.integer({ min: 0, max: 999 }),
      )
      .map(
        ([y, mo, d, h, mi, s, ms]) =>
          `${String(y).padStart(4, '0')}-${mo}-${d}T${h}:${mi}:${s}.${String(ms).padStart(3, '0')}Z`,
      );
    fc.assert(
      fc.property(stamp, (ts) => {
        expect(at(ts)).toBe(normalizeTimestamp(ts) ?? new Date(0).toISOString());
      }),
      { numRuns: 2000 },
    );
  });
});

describe('validate once', () => {
  it('offers no public way to skip the call checks: ingest still refuses a bad call', () => {
    expect(Object.keys(publicApi).filter((k) => /validated|trusted/i.test(k))).toEqual([]);
    expect(() => emulator.ingest({ type: 'track', userId: 'u1' } as never, { writeKey: 'wk_off' })).toThrow(/event/);
    expect(emulator.deliveries).toHaveLength(0);
  });
});
