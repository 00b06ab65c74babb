import { createHmac } from 'node:crypto';
import { parseMessage } from '@hookgate/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, ManualClock, UnknownWriteKeyError, type Emulator } from '@hookgate/emulator';
import { snakeCase } from '../../src/syncs/snake-case.js';
import { startCaptureReceiver, type CaptureReceiver } from '../helpers/capture-receiver.js';

describe('deletions, audiences and computed traits (seed §6)', () => {
  let receiver: CaptureReceiver;
  let emulator: Emulator;
  let clock: ManualClock;
  beforeEach(async () => {
    receiver = await startCaptureReceiver();
    clock = new ManualClock({ start: '2026-05-05T05:05:05.005Z' });
    emulator = createEmulator({
      clock,
      sources: [
        {
          writeKey: 'wk_web',
          webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/web` }], sharedSecret: 'sec_web' },
        },
        {
          writeKey: 'wk_app',
          webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/app` }], sharedSecret: 'sec_app' },
        },
        { writeKey: 'wk_off', webhooks: { enabled: false, endpoints: [{ url: `${receiver.url}/off` }] } },
        { writeKey: 'wk_other', webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/other` }] } },
      ],
    });
  });
  afterEach(async () => {
    await emulator.close();
    await receiver.close();
  });
  const signedWith = (secret: string, path: string) => {
    const got = receiver.received.filter((r) => r.url === path);
    for (const r of got) expect(r.headers['x-signature']).toBe(createHmac('sha1', secret).update(r.body).digest('hex'));
    return got;
  };

  it('sends one signed delete notification per affected source with webhooks enabled', async () => {
    emulator.track({ userId: 'u_del', event: 'A' }, { writeKey: 'wk_web' });
    emulator.identify({ userId: 'u_del' }, { writeKey: 'wk_app' });
    emulator.track({ userId: 'u_del', event: 'A' }, { writeKey: 'wk_off' });
    emulator.track({ userId: 'someone_else', event: 'A' }, { writeKey: 'wk_other' });
    await emulator.drain();
    receiver.received.length = 0;
    await clock.advance(1000);

    const records = emulator.deleteUser('u_del');
    await emulator.drain();
    expect(records.map((r) => [r.writeKey, r.state])).toEqual([
      ['wk_web', 'delivered'],
      ['wk_app', 'delivered'],
      ['wk_off', 'filtered'],
    ]);
    expect(records[2]?.reason).toMatch(/disabled/);
    const expected = { type: 'delete', userId: 'u_del', timestamp: '2026-05-05T05:05:06.005Z' };
    const web = signedWith('sec_web', '/web');
    const app = signedWith('sec_app', '/app');
    expect(web.map((r) => r.json)).toEqual([expected]);
    expect(app.map((r) => r.json)).toEqual([expected]);
    expect(web[0]?.text).toBe(JSON.stringify(expected)); // type, userId, timestamp only
    expect(receiver.received).toHaveLength(2);
    expect(() => parseMessage(web[0]?.text, { strictTimestamps: true })).not.toThrow();
  });

  it('deleteUser({ sources }) overrides the affected sources; unknown keys are named', async () => {
    const records = emulator.deleteUser('never_seen', { sources: ['wk_other'] });
    await emulator.drain();
    expect(records.map((r) => r.writeKey)).toEqual(['wk_other']);
    expect(receiver.received.map((r) => [r.url, r.json.userId])).toEqual([['/other', 'never_seen']]);
    expect(emulator.deleteUser('nobody')).toEqual([]);
    expect(() => emulator.deleteUser('x', { sources: ['wk_missing'] })).toThrow(UnknownWriteKeyError);
  });

  it('audiences: snake_case trait, true/false; the first sync sends every member, later syncs only changes', async () => {
    const traits = () => {
      const out = receiver.received.map((r) => [
        r.json.userId,
        (r.json.traits as Record<string, unknown>).high_value_users,
      ]);
      receiver.received.length = 0;
      return out.sort();
    };
    const first = emulator.syncAudience('High Value Users', ['u1', 'u2', 'u3'], { writeKey: 'wk_web' });
    await emulator.drain();
    expect(first.every((r) => r.origin === 'audience' && r.type === 'identify')).toBe(true);
    expect(traits()).toEqual([
      ['u1', true],
      ['u2', true],
      ['u3', true],
    ]);
    emulator.syncAudience('High Value Users', ['u2', 'u3', 'u4'], { writeKey: 'wk_web' });
    await emulator.drain();
    expect(traits()).toEqual([
      ['u1', false],
      ['u4', true],
    ]);
    const none = emulator.syncAudience('High Value Users', ['u4', 'u3', 'u2'], { writeKey: 'wk_web' });
    await emulator.drain();
    expect(none).toEqual([]);
    expect(traits()).toEqual([]);
    // Shape and signature of what was sent.
    emulator.syncAudience('High Value Users', ['u5'], { writeKey: 'wk_web' });
    await emulator.drain();
    const sent = signedWith('sec_web', '/web');
    expect(sent.map((r) => r.json).sort((a, b) => String(a.userId).localeCompare(String(b.userId)))).toEqual([
      {
        version: 1,
        type: 'identify',
        userId: 'u2',
        timestamp: '2026-05-05T05:05:05.005Z',
        traits: { high_value_users: false },
      },
      {
        version: 1,
        type: 'identify',
        userId: 'u3',
        timestamp: '2026-05-05T05:05:05.005Z',
        traits: { high_value_users: false },
      },
      {
        version: 1,
        type: 'identify',
        userId: 'u4',
        timestamp: '2026-05-05T05:05:05.005Z',
        traits: { high_value_users: false },
      },
      {
        version: 1,
        type: 'identify',
        userId: 'u5',
        timestamp: '2026-05-05T05:05:05.005Z',
        traits: { high_value_users: true },
      },
    ]);
    // Audiences are kept per source.
    emulator.syncAudience('High Value Users', ['u1'], { writeKey: 'wk_app' });
    await emulator.drain();
    expect(receiver.received.filter((r) => r.url === '/app').map((r) => r.json.traits)).toEqual([
      { high_value_users: true },
    ]);
  });

  it('computed traits: the value itself; later syncs send only users whose value changed; a removed user gets null', async () => {
    const values = () => {
      const out = receiver.received.map((r) => [
        r.json.userId,
        (r.json.traits as Record<string, unknown>).lifetime_value,
      ]);
      receiver.received.length = 0;
      return out.sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    };
    emulator.syncComputedTrait('Lifetime Value', { u1: 120, u2: 80, u3: { tier: 'gold' } }, { writeKey: 'wk_web' });
    await emulator.drain();
    expect(values()).toEqual([
      ['u1', 120],
      ['u2', 80],
      ['u3', { tier: 'gold' }],
    ]);
    emulator.syncComputedTrait(
      'Lifetime Value',
      new Map<string, unknown>([
        ['u1', 120],
        ['u2', 95],
        ['u3', { tier: 'gold' }],
        ['u4', 10],
      ]),
      { writeKey: 'wk_web' },
    );
    await emulator.drain();
    expect(values()).toEqual([
      ['u2', 95],
      ['u4', 10],
    ]);
    emulator.syncComputedTrait('Lifetime Value', { u2: 95, u3: { tier: 'platinum' }, u4: 10 }, { writeKey: 'wk_web' });
    await emulator.drain();
    expect(values()).toEqual([
      ['u1', null],
      ['u3', { tier: 'platinum' }],
    ]);
    for (const d of emulator.deliveries) expect(() => parseMessage(d.body, { strictTimestamps: true })).not.toThrow();
  });

  it('names the problem with bad sync input', () => {
    expect(() => emulator.syncAudience('!!!', ['u1'])).toThrow(/name must contain letters or digits/);
    expect(() => emulator.syncAudience('A', 'u1' as never)).toThrow(/memberUserIds must be a list/);
    expect(() => emulator.syncAudience('A', [''])).toThrow(/non-empty userId/);
    expect(() => emulator.syncComputedTrait('A', { u1: undefined })).toThrow(/use null to clear it/);
  });

  it('snakeCase', () => {
    expect(snakeCase('High Value Users')).toBe('high_value_users');
    expect(snakeCase('highValueUsers')).toBe('high_value_users');
    expect(snakeCase('Churn-Risk (90d)')).toBe('churn_risk_90d');
    expect(snakeCase('  VIP  customers ')).toBe('vip_customers');
    expect(snakeCase('HTMLParser')).toBe('html_parser');
    expect(snakeCase('Käufer Österreich')).toBe('käufer_österreich');
  });
});
