/** The longest text `Number.prototype.toString` gives for a finite number (`-0.0000012345678901234567` is 25). */
const NUMBER_TEXT_MAX = 25;
/** Deeper values than this are measured exactly instead (a recursive walk must not overflow the stack). */
const MAX_DEPTH = 64;

/**
 * An upper bound of the UTF-8 byte length of `JSON.stringify(value)`, computed without building the
 * text, or `Infinity` as soon as the bound passes `limit` or the value is not plain parsed JSON (a
 * `toJSON`, a class instance, a function, a bigint, very deep nesting): the caller then measures
 * exactly. A string of n UTF-16 code units takes at most 6n + 2 bytes in the output (`\u001f` is the
 * longest form of one code unit), a number at most 25, `true`/`false`/`null` at most 5.
 *
 * @example
 * const bound = jsonSizeBound(call, 32 * 1024);
 * const size = bound <= 32 * 1024 ? bound : Buffer.byteLength(JSON.stringify(call));
 */
export function jsonSizeBound(value: unknown, limit: number): number {
  const n = bound(value, limit, 0);
  return n > limit ? Infinity : n;
}

function bound(value: unknown, budget: number, depth: number): number {
  switch (typeof value) {
    case 'string':
      return value.length * 6 + 2;
    case 'number':
      return NUMBER_TEXT_MAX;
    case 'boolean':
      return 5;
    case 'undefined':
      return 9; // `null` in an array; absent in an object: over-counting is safe
    case 'object': {
      if (value === null) return 4;
      if (depth >= MAX_DEPTH) return Infinity;
      let total = 2; // [] or {}
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          total += bound(value[i], budget - total, depth + 1) + 1;
          if (total > budget) return Infinity;
        }
        return total;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) return Infinity;
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return Infinity;
      for (const key in value) {
        // key text, quotes, colon, comma
        total += key.length * 6 + 4 + bound((value as Record<string, unknown>)[key], budget - total, depth + 1);
        if (total > budget) return Infinity;
      }
      return total;
    }
    default:
      return Infinity; // function, symbol, bigint: measured exactly (and refused or thrown on as before)
  }
}
