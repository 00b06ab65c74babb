import { string } from './schema-parts.js';

// The fields' ranges are in the patterns (month 01–12, day 01–31, hour 00–23, minute and second
// 00–59, zone hours 00–23), so a schema-only consumer of the JSON Schema refuses month 13 too. The
// wide form also takes ISO 8601's end of day, 24:00 (Date.parse reads it as the next midnight). A
// day that its month does not have (02-30) still matches: a pattern cannot know month lengths
// without becoming unreadable; Date.parse, and so normalizeTimestamp(), rolls it over (03-02).
const DATE = String.raw`\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])`;
const HOUR_MINUTE = String.raw`(?:[01]\d|2[0-3]):[0-5]\d`;
const SECOND = String.raw`[0-5]\d`;
const END_OF_DAY = String.raw`24:00(?::00(?:\.0{1,9})?)?`;
const ZONE = String.raw`(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)`;

/**
 * The form the sender emits: ISO 8601 in UTC with milliseconds, e.g. `2026-11-21T22:43:56.123Z`.
 *
 * @example
 * UTC_MILLIS_TIMESTAMP.test('2026-11-21T22:43:56.123Z'); // true
 * UTC_MILLIS_TIMESTAMP.test('2026-11-21T22:43:56Z'); // false: no milliseconds
 */
export const UTC_MILLIS_TIMESTAMP = new RegExp(`^${DATE}T${HOUR_MINUTE}:${SECOND}\\.\\d{3}Z$`);

/**
 * Any ISO 8601 date-time with a zone: `Z`, `+01:00` or Go's `+0000`, seconds and fraction optional.
 * The receiver accepts this wider form by default so that a message is never refused (a 400 is
 * not retried by the sender, so the message would be lost) over a timestamp's spelling.
 *
 * @example
 * ISO_8601_TIMESTAMP.test('2009-11-10T23:00:00+0000'); // true
 * ISO_8601_TIMESTAMP.test('2009-11-10'); // false: no time or zone
 */
export const ISO_8601_TIMESTAMP = new RegExp(
  `^${DATE}T(?:${HOUR_MINUTE}(?::${SECOND}(?:\\.\\d{1,9})?)?|${END_OF_DAY})${ZONE}$`,
);

/**
 * JSON Schema of a timestamp in the wide ISO 8601 form.
 *
 * @example
 * new RegExp(IsoTimestampSchema.pattern).test('2026-11-21T23:43:56+01:00'); // true
 */
export const IsoTimestampSchema = string({
  pattern: ISO_8601_TIMESTAMP.source,
  description: 'an ISO 8601 date-time with a zone (the sender emits UTC with milliseconds)',
});

/**
 * JSON Schema of a timestamp in the sender's exact form (UTC, milliseconds).
 *
 * @example
 * new RegExp(StrictTimestampSchema.pattern).test('2026-11-21T22:43:56.123Z'); // true
 * new RegExp(StrictTimestampSchema.pattern).test('2026-11-21T23:43:56+01:00'); // false
 */
export const StrictTimestampSchema = string({
  pattern: UTC_MILLIS_TIMESTAMP.source,
  description: 'an ISO 8601 date-time in UTC with milliseconds, like 2026-01-31T23:59:59.123Z',
});

/**
 * Turns any accepted ISO 8601 timestamp (Go's `2009-11-10T23:00:00+0000` included) or a Date
 * into the sender's form, ISO 8601 UTC with milliseconds. Returns `undefined` for anything else.
 *
 * @example
 * normalizeTimestamp('2009-11-10T23:00:00+0000'); // '2009-11-10T23:00:00.000Z'
 */
export function normalizeTimestamp(value: string | Date | number): string | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
  if (typeof value === 'number') return Number.isFinite(value) ? new Date(value).toISOString() : undefined;
  if (typeof value !== 'string' || !ISO_8601_TIMESTAMP.test(value)) return undefined;
  // Date.parse does not read `+0000` (no colon) everywhere: add the colon first.
  const withColon = value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const ms = Date.parse(withColon);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}
