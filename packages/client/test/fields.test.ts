import { ValidationError } from '@hookgate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Analytics, FieldError, OptionError, type TrackParams } from '../src/index.js';
import { startCaptureServer, type CaptureServer } from './helpers/capture-server.js';

let server: CaptureServer;
let analytics: Analytics;
beforeAll(async () => {
  server = await startCaptureServer();
  analytics = new Analytics('wk', { endpoint: server.url, flushAfter: 60_000 });
});
afterAll(async () => {
  await analytics.close();
  await server.close();
});

function fieldError(fn: () => unknown): FieldError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(FieldError);
    return e as FieldError;
  }
  throw new Error('expected a FieldError');
}

describe('required fields, checked at call time', () => {
  it.each([
    ['identify', () => analytics.identify({ traits: { a: 1 } } as any), 'userId', /userId or anonymousId is required/],
    ['track', () => analytics.track({ event: 'E' } as any), 'userId', /userId or anonymousId/],
    ['track', () => analytics.track({ userId: 'u1' } as any), 'event', /is required/],
    ['group', () => analytics.group({ userId: 'u1' } as any), 'groupId', /is required/],
    ['group', () => analytics.group({ groupId: 'g1' } as any), 'userId', /userId or anonymousId/],
    ['page', () => analytics.page({ name: 'Home' } as any), 'userId', /userId or anonymousId/],
    ['screen', () => analytics.screen({ name: 'Home' } as any), 'userId', /userId or anonymousId/],
    ['alias', () => analytics.alias({ previousId: 'a1' } as any), 'userId', /required/],
    ['alias', () => analytics.alias({ userId: 'u1' } as any), 'previousId', /is required/],
  ])('%s without %s → FieldError naming the field', (callType, call, field, message) => {
    const e = fieldError(call);
    expect(e.callType).toBe(callType);
    expect(e.field).toBe(field);
    expect(e.message).toMatch(message);
    expect(e.message).toContain(`"${field}"`);
    expect(e).toBeInstanceOf(ValidationError); // core's error, so one catch serves both
    expect(e.issues[0]!.path).toBe(`$.${field}`);
  });

  it('accepts a page with an anonymousId alone (as the tracking API does)', () => {
    expect(() => analytics.page({ anonymousId: 'a1', name: 'Home' })).not.toThrow();
  });

  it('names a field of the wrong type', () => {
    expect(fieldError(() => analytics.track({ userId: 'u1', event: 'E', properties: 'x' } as any)).field).toBe(
      'properties',
    );
    expect(fieldError(() => analytics.track({ userId: 42, event: 'E' } as any)).field).toBe('userId');
    expect(fieldError(() => analytics.track({ userId: 'u1', event: 'E', context: [] } as any)).field).toBe('context');
  });

  it('refuses a timestamp that is not ISO 8601 with a zone, a valid Date or epoch ms', () => {
    for (const timestamp of ['yesterday', '2020-01-01', '2020-01-01T00:00:00', new Date('nope'), {}]) {
      const e = fieldError(() => analytics.track({ userId: 'u1', event: 'E', timestamp } as any));
      expect(e.field).toBe('timestamp');
    }
  });

  it('refuses an empty messageId, and a value JSON cannot carry', () => {
    expect(fieldError(() => analytics.track({ userId: 'u1', event: 'E', messageId: '' })).field).toBe('messageId');
    expect(fieldError(() => analytics.track({ userId: 'u1', event: 'E', properties: { n: 1n } })).field).toBe(
      'properties',
    );
  });

  it('refuses a call that is not an object', () => {
    const e = fieldError(() => analytics.track(null as unknown as TrackParams));
    expect(e.field).toBe('$');
  });

  it('queues nothing for a refused call', async () => {
    const before = server.requests.length;
    await analytics.flush();
    const batch = server.requests.slice(before).flatMap((r) => r.body.batch);
    expect(batch.map((m: any) => m.type)).toEqual(['page']); // only the anonymous page above
  });

  it('narrows at compile time: identity and required fields are part of the types', () => {
    // @ts-expect-error: event is required on track
    expect(() => analytics.track({ userId: 'u1' })).toThrow(FieldError);
    // @ts-expect-error: userId or anonymousId is required
    expect(() => analytics.identify({ traits: {} })).toThrow(FieldError);
    // @ts-expect-error: previousId is required on alias
    expect(() => analytics.alias({ userId: 'u1' })).toThrow(FieldError);
  });
});

describe('options', () => {
  const bad = (writeKey: unknown, options: unknown): OptionError => {
    try {
      new Analytics(writeKey as string, options as any);
    } catch (e) {
      expect(e).toBeInstanceOf(OptionError);
      return e as OptionError;
    }
    throw new Error('expected an OptionError');
  };

  it.each([
    ['writeKey', '', {}],
    ['writeKey', undefined, {}],
    ['flushAt', 'k', { flushAt: 0 }],
    ['flushAt', 'k', { flushAt: 2.5 }],
    ['size', 'k', { size: -1 }],
    ['size', 'k', { size: 10, flushAt: 20 }],
    ['flushAfter', 'k', { flushAfter: 0 }],
    ['maxRetries', 'k', { maxRetries: -1 }],
    ['timeoutMs', 'k', { timeoutMs: '100' }],
    ['maxInFlight', 'k', { maxInFlight: 0 }],
    ['endpoint', 'k', { endpoint: 'not a url' }],
    ['endpoint', 'k', { endpoint: 'ftp://example.com' }],
    ['endpoint', 'k', { endpoint: 'https://user:pw@example.com' }],
    ['endpoint', 'k', { endpoint: 'https://example.com/v1/batch' }],
    ['context', 'k', { context: 'x' }],
    ['onError', 'k', { onError: 'log' }],
    ['onFlush', 'k', { onFlush: 1 }],
    ['host', 'k', { host: 'https://example.com' }],
  ])('%s is named when wrong', (option, writeKey, options) => {
    const e = bad(writeKey, options);
    expect(e.option).toBe(option);
    expect(e.message).toContain(`"${option}"`);
  });

  it('points a user of analytics-node to the equivalent option', () => {
    expect(bad('k', { host: 'x' }).message).toMatch(/did you mean "endpoint"/);
    expect(bad('k', { flushInterval: 1 }).message).toMatch(/did you mean "flushAfter"/);
  });

  it('never puts the write key in an error message', () => {
    expect(bad('wk_SECRET', { flushAt: 0 }).message).not.toContain('wk_SECRET');
  });
});
