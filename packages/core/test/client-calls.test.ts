// readCallTimestamp and readClientCall: the intake's lenient reading of what official clients send.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callIssues, readCallTimestamp, readClientCall } from '../src/calls.js';
import { normalizeTimestamp } from '../src/calls.js';
import { ISO_8601_TIMESTAMP, UTC_MILLIS_TIMESTAMP } from '../src/internal.js';

describe("readCallTimestamp: one documented rule, the sender's UTC-with-milliseconds form out", () => {
  it.each([
    // Python's isoformat with microseconds and +00:00; Ruby's 3 digits and +00:00
    ['2026-11-24T10:00:00.123456+00:00', '2026-11-24T10:00:00.123Z'],
    ['2026-11-24T10:00:00.123+00:00', '2026-11-24T10:00:00.123Z'],
    // Go v2's +0000 without milliseconds; Go v3's RFC 3339 with nanoseconds
    ['2009-11-10T23:00:00+0000', '2009-11-10T23:00:00.000Z'],
    ['2026-11-24T10:00:00.123456789Z', '2026-11-24T10:00:00.123Z'],
    // offsets move the instant; fractions are cut, never rounded into the next second
    ['2026-11-24T11:00:00.9999+01:00', '2026-11-24T10:00:00.999Z'],
    ['2026-11-24T04:30:00-05:30', '2026-11-24T10:00:00.000Z'],
    ['2026-11-24T11:00:00+01', '2026-11-24T10:00:00.000Z'],
    // no zone is UTC (not the machine's zone); a date alone is midnight UTC; a space for T; Ruby's " +0100"
    ['2026-11-24T10:00:00', '2026-11-24T10:00:00.000Z'],
    ['2026-11-24T10:00:00.5', '2026-11-24T10:00:00.500Z'],
    ['2026-11-24 10:00:00', '2026-11-24T10:00:00.000Z'],
    ['2026-11-24 11:00:00 +0100', '2026-11-24T10:00:00.000Z'],
    ['2026-11-24', '2026-11-24T00:00:00.000Z'],
    ['2026-11-24T24:00:00Z', '2026-11-25T00:00:00.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['2026-02-30T00:00:00Z', '2026-03-02T00:00:00.000Z'],
    // epoch milliseconds, as a number or a string of digits
    [1764000000000, '2025-11-24T16:00:00.000Z'],
    ['1764000000000', '2025-11-24T16:00:00.000Z'],
    [1764000000000.9, '2025-11-24T16:00:00.000Z'],
    [0, '1970-01-01T00:00:00.000Z'],
  ])('%j → %s', (input, expected) => {
    expect(readCallTimestamp(input)).toBe(expected);
    expect(UTC_MILLIS_TIMESTAMP.test(expected)).toBe(true);
  });

  it.each([
    'yesterday',
    '',
    '2026-13-01T00:00:00Z',
    '2026-11-32T00:00:00Z',
    '2026-11-00T00:00:00Z',
    '2026-11-24T24:01:00Z',
    '2026-11-24T10:60:00Z',
    '2026-11-24T10:00:00+24:00',
    '2026-11-24T10:00:00 Europe/Paris',
    'x'.repeat(100),
    '20261124',
    '123',
    1e20,
    -1e20,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    '12345678901234567',
    true,
    {},
    [],
    null,
  ])('%j is no time', (input) => {
    expect(readCallTimestamp(input)).toBeUndefined();
  });

  it("agrees with normalizeTimestamp on every timestamp with a zone that core's messages accept (property-based)", () => {
    const two = (n: number) => String(n).padStart(2, '0');
    const stamp = fc
      .record({
        year: fc.integer({ min: 1000, max: 9999 }),
        month: fc.integer({ min: 1, max: 12 }),
        day: fc.integer({ min: 1, max: 31 }),
        hour: fc.integer({ min: 0, max: 23 }),
        minute: fc.integer({ min: 0, max: 59 }),
        second: fc.option(fc.integer({ min: 0, max: 59 })),
        fraction: fc.option(fc.stringMatching(/^\d{1,9}$/)),
        zone: fc.oneof(
          fc.constant('Z'),
          fc
            .tuple(
              fc.constantFrom('+', '-'),
              fc.integer({ min: 0, max: 23 }),
              fc.integer({ min: 0, max: 59 }),
              fc.boolean(),
            )
            .map(([sign, h, m, colon]) => `${sign}${two(h)}${colon ? ':' : ''}${two(m)}`),
        ),
      })
      .map((t) => {
        const seconds = t.second === null ? '' : `:${two(t.second)}${t.fraction === null ? '' : `.${t.fraction}`}`;
        return `${t.year}-${two(t.month)}-${two(t.day)}T${two(t.hour)}:${two(t.minute)}${seconds}${t.zone}`;
      });
    fc.assert(
      fc.property(stamp, (s) => {
        expect(ISO_8601_TIMESTAMP.test(s)).toBe(true);
        const ours = readCallTimestamp(s);
        // Same instant, same form: Date.parse also cuts a fraction past 3 digits and rolls 02-30 over.
        expect(ours).toBe(normalizeTimestamp(s));
      }),
      { numRuns: 2000 },
    );
  });

  it("does not depend on the machine's time zone", () => {
    const before = process.env.TZ;
    try {
      process.env.TZ = 'Pacific/Kiritimati';
      expect(readCallTimestamp('2026-11-24T10:00:00')).toBe('2026-11-24T10:00:00.000Z');
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });
});

describe('readClientCall: nulls absent, numeric ids strings, timestamps normalized', () => {
  it('turns null in every optional field into absent, so the call validates', () => {
    const call = JSON.parse(
      '{"type":"page","userId":"u1","anonymousId":null,"name":null,"category":null,"properties":null,"traits":null,"context":null,"integrations":null,"timestamp":null,"messageId":null,"sentAt":null,"writeKey":null}',
    );
    expect(readClientCall(call)).toEqual([]);
    expect(callIssues(call)).toEqual([]);
    expect(JSON.parse(JSON.stringify(call))).toEqual({ type: 'page', userId: 'u1' });
  });

  it('makes numeric ids and names strings, in decimal', () => {
    const call = JSON.parse('{"type":"group","userId":42,"anonymousId":7,"groupId":-3,"messageId":1.5,"previousId":0}');
    expect(readClientCall(call)).toEqual([]);
    expect(call).toMatchObject({ userId: '42', anonymousId: '7', groupId: '-3', messageId: '1.5', previousId: '0' });
    const track = JSON.parse('{"type":"track","userId":"u","event":404}');
    readClientCall(track);
    expect(track.event).toBe('404');
  });

  it('refuses ids too large to keep exactly, and times that are none, naming the path and the fix', () => {
    const call = JSON.parse(
      '{"type":"track","userId":12345678901234567890,"event":"E","timestamp":"soon","anonymousId":1e400}',
    );
    expect(readClientCall(call, { path: '$.batch[3]' })).toEqual([
      { path: '$.batch[3].userId', message: expect.stringMatching(/too large to keep exactly.*send it as a string/) },
      { path: '$.batch[3].anonymousId', message: 'must be a string (got number Infinity)' },
      {
        path: '$.batch[3].timestamp',
        message: expect.stringMatching(/ISO 8601 .*epoch milliseconds \(got string "soon"\)/),
      },
    ]);
  });

  it('leaves a required field that is null to be reported as required, and other kinds to callIssues', () => {
    const track = JSON.parse('{"type":"track","userId":"u","event":null}');
    expect(readClientCall(track, { path: '$.batch[1]' })).toEqual([
      { path: '$.batch[1].event', message: 'is required (got null)' },
    ]);
    const group = JSON.parse('{"userId":"u","groupId":null}');
    expect(readClientCall(group, { type: 'group' })).toEqual([
      { path: '$.groupId', message: 'is required (got null)' },
    ]);
    const both = JSON.parse('{"type":"identify","userId":null,"anonymousId":null}');
    expect(readClientCall(both)).toEqual([{ path: '$.userId', message: 'userId or anonymousId is required' }]);
    const alias = JSON.parse('{"type":"alias","userId":null,"previousId":"p"}');
    expect(readClientCall(alias)).toEqual([{ path: '$.userId', message: 'is required on alias: the new identifier' }]);
    const wrong = JSON.parse('{"type":"identify","userId":true,"traits":"x"}');
    expect(readClientCall(wrong).map((i) => i.path)).toEqual(expect.arrayContaining(['$.userId', '$.traits']));
    expect(readClientCall(null, { path: '$.batch[0]' })).toEqual([
      { path: '$.batch[0]', message: 'must be a JSON object (got null)' },
    ]);
    expect(readClientCall({ type: null, userId: 'u' }, { path: '$.batch[0]' })).toEqual([
      { path: '$.batch[0].type', message: expect.stringMatching(/must be one of identify/) },
    ]);
  });

  it("keeps nulls inside properties, traits and context (they are the user's data)", () => {
    const call = JSON.parse('{"type":"identify","userId":"u","traits":{"plan":null},"context":{"ip":null}}');
    expect(readClientCall(call)).toEqual([]);
    expect(call.traits).toEqual({ plan: null });
    expect(call.context).toEqual({ ip: null });
  });
});
