import type { Call } from '@hookgate/core/calls';
import { hasDigitRun } from '@hookgate/core/internal';
import type { IntakeRoute } from './parse-intake-payload.js';
/** At most this many numbers are named per call (the raw call shows the rest). */
const MAX_NAMED = 10;

/**
 * Notes for the accepted calls that hold an integer beyond 2^53 − 1 anywhere (properties, traits,
 * context, ...): JSON parsing turns such a literal into the nearest double (`12345678901234567890`
 * becomes `12345678901234567000`), so the message delivered does not carry the digits the client
 * sent (the record keeps the call's text as sent beside the notes). Aligned with `calls` (`undefined`
 * for a call without one); `undefined` as a whole when no call has one, which a scan of the body for
 * 16 digits in a row decides before any call is walked.
 *
 * @example
 * const notes = bigNumberNotes(text, route, parsed.calls, parsed.indexes);
 * notes?.[0]; // ['$.batch[0].properties.orderId is an integer beyond 2^53 …']
 */
export function bigNumberNotes(
  text: string,
  route: IntakeRoute,
  calls: readonly Call[],
  indexes: readonly number[],
): Array<string[] | undefined> | undefined {
  if (!hasDigitRun(text, 16)) return undefined; // 2^53 has 16 digits: a smaller integer is kept exactly
  let out: Array<string[] | undefined> | undefined;
  for (let i = 0; i < calls.length; i++) {
    const index = indexes[i] as number;
    const base = route.kind === 'batch' ? `$.batch[${index}]` : '$';
    const found = unsafeIntegers(calls[i], base);
    if (found.length === 0) continue;
    const shown = found
      .slice(0, MAX_NAMED)
      .map(
        ({ path, value }) =>
          `${path} is an integer beyond 2^53 − 1: JSON parsing changed it (it is now ${String(value)}; the raw call shows the digits sent). Send it as a string to keep it exact.`,
      );
    if (found.length > MAX_NAMED) shown.push(`… and ${found.length - MAX_NAMED} more such numbers`);
    (out ??= new Array<string[] | undefined>(calls.length))[i] = shown;
  }
  return out;
}

/** Every integer beyond 2^53 − 1 in a parsed value, with its JSON path (walked with an explicit stack). */
function unsafeIntegers(value: unknown, base: string): Array<{ path: string; value: number }> {
  const found: Array<{ path: string; value: number }> = [];
  const stack: Array<[unknown, string]> = [[value, base]];
  while (stack.length > 0) {
    const [v, path] = stack.pop() as [unknown, string];
    if (typeof v === 'number') {
      if (Number.isInteger(v) && !Number.isSafeInteger(v)) found.push({ path, value: v });
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}[${i}]`]);
    } else if (typeof v === 'object' && v !== null) {
      const keys = Object.keys(v);
      for (let k = keys.length - 1; k >= 0; k--) {
        const key = keys[k] as string;
        stack.push([
          (v as Record<string, unknown>)[key],
          /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`,
        ]);
      }
    }
  }
  return found;
}
