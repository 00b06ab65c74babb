/**
 * Times kept compact: whole milliseconds from one origin (the first time stored in this process), so
 * that V8 keeps a record's times as small integers inside the record instead of a 16-byte box each.
 * 100,000 pending records hold five times each. A time more than ±24 days from the origin (a
 * `ManualClock` started years away) is still kept exactly, only boxed.
 *
 * @example
 * const kept = toCompactMs(Date.now());
 * fromCompactMs(kept); // the same epoch milliseconds
 */
export function toCompactMs(ms: number): number {
  if (origin === undefined) origin = Math.floor(ms);
  return smallInteger(ms - origin);
}

/**
 * The same number, as a small integer to V8 when it is one (`| 0`): the result of arithmetic on large
 * doubles is a boxed number even when it is whole, and storing one box in a record's field makes V8 box
 * that field in every record. Other numbers come back as they are.
 *
 * @example
 * smallInteger(1.764e12 - 1.764e12); // 0, unboxed
 */
export function smallInteger(n: number): number {
  const small = n | 0;
  return small === n ? small : n;
}

/** Epoch milliseconds of a time kept by `toCompactMs`. @example fromCompactMs(toCompactMs(42)) // 42 */
export function fromCompactMs(kept: number): number {
  return kept + (origin as number);
}

let origin: number | undefined;
