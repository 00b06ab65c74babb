// normalizeTimestamp: any accepted ISO 8601 form (Go's `+0000` included) to the sender's UTC-with-ms form.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeTimestamp } from '../src/calls.js';
import { ISO_8601_TIMESTAMP, UTC_MILLIS_TIMESTAMP } from '../src/internal.js';

describe('normalizeTimestamp', () => {
  it.each([
    ['2009-11-10T23:00:00+0000', '2009-11-10T23:00:00.000Z'],
    ['2009-11-10T23:00:00-0000', '2009-11-10T23:00:00.000Z'],
    ['2009-11-10T23:00:00+0130', '2009-11-10T21:30:00.000Z'],
    ['2009-11-10T23:00:00-05:00', '2009-11-11T04:00:00.000Z'],
    ['2009-11-10T23:00Z', '2009-11-10T23:00:00.000Z'],
    ['2009-11-10T23:00:00.5Z', '2009-11-10T23:00:00.500Z'],
    ['2009-11-10T23:00:00.123456789Z', '2009-11-10T23:00:00.123Z'],
    ['2026-11-21T12:00:00.000Z', '2026-11-21T12:00:00.000Z'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeTimestamp(input)).toBe(expected);
  });

  it('takes Dates and epoch milliseconds', () => {
    expect(normalizeTimestamp(new Date(Date.UTC(2020, 0, 2, 3, 4, 5, 6)))).toBe('2020-01-02T03:04:05.006Z');
    expect(normalizeTimestamp(0)).toBe('1970-01-01T00:00:00.000Z');
  });

  it.each([
    ['yesterday'],
    ['2009-11-10'],
    ['2009-11-10T23:00:00'],
    ['2009-13-10T23:00:00Z'],
    ['2009-11-10T24:30:00Z'],
    [''],
    [Number.NaN],
    [Infinity],
    [new Date('x')],
  ])('gives undefined for %j', (input) => {
    expect(normalizeTimestamp(input as string)).toBeUndefined();
  });

  it('always emits the strict form, equal to the same instant', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1971-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }),
        fc.integer({ min: -14 * 60, max: 14 * 60 }),
        (date, offsetMin) => {
          // Write the instant in Go's form with an offset, then normalize it back.
          const local = new Date(date.getTime() + offsetMin * 60_000);
          const sign = offsetMin < 0 ? '-' : '+';
          const abs = Math.abs(offsetMin);
          const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
          const text = `${local.toISOString().slice(0, 23)}${zone}`;
          expect(text).toMatch(ISO_8601_TIMESTAMP);
          const out = normalizeTimestamp(text)!;
          expect(out).toMatch(UTC_MILLIS_TIMESTAMP);
          expect(Date.parse(out)).toBe(date.getTime());
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('timestamp patterns', () => {
  const two = (n: number) => String(n).padStart(2, '0');

  it('accept a date-time exactly when every field is in its range (month 13, hour 24, … refused)', () => {
    fc.assert(
      fc.property(
        fc.record({
          month: fc.integer({ min: 0, max: 14 }),
          day: fc.integer({ min: 0, max: 33 }),
          hour: fc.integer({ min: 0, max: 25 }),
          minute: fc.integer({ min: 0, max: 61 }),
          second: fc.integer({ min: 0, max: 61 }),
          zoneHour: fc.integer({ min: 0, max: 25 }),
        }),
        ({ month, day, hour, minute, second, zoneHour }) => {
          const dateOk = month >= 1 && month <= 12 && day >= 1 && day <= 31;
          const inRange = dateOk && hour <= 23 && minute <= 59 && second <= 59;
          const endOfDay = dateOk && hour === 24 && minute === 0 && second === 0; // ISO 8601's 24:00, wide form only
          const dateTime = `2024-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}:${two(second)}`;
          expect(UTC_MILLIS_TIMESTAMP.test(`${dateTime}.123Z`)).toBe(inRange);
          expect(UTC_MILLIS_TIMESTAMP.test(`${dateTime}.000Z`)).toBe(inRange);
          expect(ISO_8601_TIMESTAMP.test(`${dateTime}Z`)).toBe(inRange || endOfDay);
          expect(ISO_8601_TIMESTAMP.test(`${dateTime}.5Z`)).toBe(inRange);
          expect(ISO_8601_TIMESTAMP.test(`${dateTime}+${two(zoneHour)}30`)).toBe(
            (inRange || endOfDay) && zoneHour <= 23,
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('match every instant the sender can emit (Date#toISOString)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1000-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }),
        (date) => {
          expect(date.toISOString()).toMatch(UTC_MILLIS_TIMESTAMP);
          expect(date.toISOString()).toMatch(ISO_8601_TIMESTAMP);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("normalizeTimestamp reads ISO 8601's end of day, and rolls a day its month lacks over as Date.parse does", () => {
    expect(normalizeTimestamp('2024-12-31T24:00Z')).toBe('2025-01-01T00:00:00.000Z');
    expect(normalizeTimestamp('2024-12-31T24:00:00.000+0100')).toBe('2024-12-31T23:00:00.000Z');
    expect(normalizeTimestamp('2024-02-29T00:00:00Z')).toBe('2024-02-29T00:00:00.000Z');
    expect(normalizeTimestamp('2026-02-30T00:00:00Z')).toBe('2026-03-02T00:00:00.000Z');
  });
});
