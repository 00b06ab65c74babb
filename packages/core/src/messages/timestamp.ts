import { Type } from '@sinclair/typebox';

/**
 * The form the sender emits: ISO 8601 in UTC with milliseconds, e.g. `2026-11-21T22:43:56.123Z`.
 *
 * @example
 * UTC_MILLIS_TIMESTAMP.test('2026-11-21T22:43:56.123Z'); // true
 * UTC_MILLIS_TIMESTAMP.test('2026-11-21T22:43:56Z'); // false: no milliseconds
 */
export const UTC_MILLIS_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Any ISO 8601 date-time with a zone: `Z`, `+01:00` or Go's `+0000`, seconds and fraction optional.
 * The receiver accepts this wider form by default so that a message is never refused (a 400 is
 * not retried by the sender, so the message would be lost) over a timestamp's spelling.
 *
 * @example
 * ISO_8601_TIMESTAMP.test('2009-11-10T23:00:00+0000'); // true
 * ISO_8601_TIMESTAMP.test('2009-11-10'); // false: no time or zone
 */
export const ISO_8601_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/**
 * Schema of a timestamp in the wide ISO 8601 form.
 *
 * @example
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(IsoTimestampSchema, '2026-11-21T23:43:56+01:00'); // true
 */
export const IsoTimestampSchema = Type.String({
  pattern: ISO_8601_TIMESTAMP.source,
  description: 'an ISO 8601 date-time with a zone (the sender emits UTC with milliseconds)',
});

/**
 * Schema of a timestamp in the sender's exact form (UTC, milliseconds).
 *
 * @example
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(StrictTimestampSchema, '2026-11-21T22:43:56.123Z'); // true
 * Value.Check(StrictTimestampSchema, '2026-11-21T23:43:56+01:00'); // false
 */
export const StrictTimestampSchema = Type.String({
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
