// How the tracking API's intake reads a call's `timestamp` (and any other call time) from what
// clients in many languages send, into the one form the sender emits: ISO 8601 UTC with milliseconds.

// Date, then optional time (T or a space), then an optional zone (Z, ±HH, ±HHMM or ±HH:MM, with
// optional whitespace before it, as Ruby's Time#to_s writes).
const CLIENT_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(?:\s*(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?))?$/;
// 10 digits at least: epoch milliseconds since 1970-04-26, so a basic ISO date such as "20261124" is
// never misread as a time in January 1970.
const EPOCH_MS_STRING = /^-?\d{10,16}$/;
/**
 * Already the sender's form, with fields in range (day 29–31 take the full path, which rolls over a
 * day its month lacks): returned unchanged, without building a Date.
 */
const CANONICAL = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
/** ECMAScript's Date range: ±100,000,000 days around 1970. */
const MAX_EPOCH_MS = 8.64e15;

/**
 * Reads a call's time the way the tracking API's intake does, and returns it in the sender's form
 * (ISO 8601 UTC with milliseconds), or `undefined` when the value is no time.
 *
 * The rule:
 * - A number is milliseconds since 1970-01-01T00:00:00Z (JavaScript's `Date.now()`; Go clients' and
 *   some libraries' epoch form). A string of 10 to 16 digits only (`"1764000000000"`) is read the
 *   same way (a shorter one, such as the basic ISO date `"20261124"`, is no time).
 *   Numbers are never guessed to be seconds.
 * - An ISO 8601 / RFC 3339 string: the date, optionally `T` (or a space) and the time, optionally a
 *   zone: `Z`, `+01:00`, `+0100` (Go's form) or `+01`. **No zone means UTC**, as the tracking API
 *   reads it (Python's naive `isoformat()`); a date alone is midnight UTC.
 * - Fractions of a second of any length up to 9 digits (Python's microseconds, Go's nanoseconds)
 *   are cut to milliseconds (never rounded up into the next second).
 * - `24:00` (ISO 8601's end of day) is the next midnight; a day its month lacks rolls over
 *   (`02-30` is `03-02`), as `Date.parse` and core's `normalizeTimestamp` read them. Fields out of
 *   range (month 13, day 32, 24:01, minute 60, zone +24:00) and times outside the JavaScript Date
 *   range are no time.
 *
 * @example
 * readCallTimestamp('2026-11-24T10:00:00.123456+00:00'); // '2026-11-24T10:00:00.123Z'
 * readCallTimestamp('2009-11-10T23:00:00+0000');         // '2009-11-10T23:00:00.000Z'
 * readCallTimestamp('2026-11-24T10:00:00');              // '2026-11-24T10:00:00.000Z' (no zone: UTC)
 * readCallTimestamp(1764000000000);                      // '2025-11-24T16:00:00.000Z'
 * readCallTimestamp('yesterday');                        // undefined
 */
export function readCallTimestamp(value: unknown): string | undefined {
  if (typeof value === 'number') return fromEpochMs(value);
  if (typeof value !== 'string' || value.length > 64) return undefined;
  if (CANONICAL.test(value)) return value;
  if (EPOCH_MS_STRING.test(value)) return fromEpochMs(Number(value));
  const m = CLIENT_TIMESTAMP.exec(value);
  if (m === null) return undefined;
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = m[4] === undefined ? 0 : Number(m[4]);
  const minute = m[5] === undefined ? 0 : Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const fraction = m[7] ?? '';
  // A day its month lacks (02-30) rolls over (03-02), as Date.parse and core's normalizeTimestamp read it.
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  // ISO 8601's end of day, 24:00, is the next midnight (as core's message timestamps read it).
  const endOfDay = hour === 24 && minute === 0 && second === 0 && /^0*$/.test(fraction);
  if ((hour > 23 && !endOfDay) || minute > 59 || second > 59) return undefined;
  let offsetMinutes = 0;
  if (m[9] !== undefined) {
    const oh = Number(m[10]);
    const om = m[11] === undefined ? 0 : Number(m[11]);
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const ms3 = fraction.length === 3 ? fraction : fraction.slice(0, 3).padEnd(3, '0');
  // UTC already (Z, +00:00, +0000, or no zone) and nothing to roll over: the string is the answer.
  if (offsetMinutes === 0 && day <= 28 && hour <= 23) {
    return `${m[1]}-${m[2]}-${m[3]}T${m[4] ?? '00'}:${m[5] ?? '00'}:${m[6] ?? '00'}.${ms3}Z`;
  }
  const year = Number(m[1]);
  let ms: number;
  if (year >= 100) ms = Date.UTC(year, month - 1, day, hour, minute, second, Number(ms3));
  else {
    // Date.UTC reads years 0–99 as 1900–1999.
    const d = new Date(0);
    d.setUTCFullYear(year, month - 1, day);
    d.setUTCHours(hour, minute, second, Number(ms3));
    ms = d.getTime();
  }
  return fromEpochMs(ms - offsetMinutes * 60_000);
}

function fromEpochMs(ms: number): string | undefined {
  if (!Number.isFinite(ms) || Math.abs(ms) > MAX_EPOCH_MS) return undefined;
  return new Date(Math.trunc(ms)).toISOString();
}
