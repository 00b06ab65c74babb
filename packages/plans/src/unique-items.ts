// JSON Schema's `uniqueItems` in one pass: each item written once in a canonical form (object keys
// sorted) and looked up in a Map, where Ajv compares every pair (31 s for 1 MB of numbers) and keeps
// scalars in a plain object, whose inherited `__proto__` made `["__proto__", "__proto__"]` unique.

/** An item in a form equal items share: JSON with object keys sorted (1 and 1.0, 0 and -0 are one number). */
function canonical(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`).join(',')}}`;
}

/**
 * The first two equal items of an array by JSON Schema's equality (`[first, second]` indexes, the
 * smallest first index that has an equal item, as `@cfworker/json-schema` reports it), or `undefined`
 * when every item is unique; in time linear in the array's size. Tracking plans run `uniqueItems` on it,
 * and the module `hookgate types` writes imports it.
 *
 * @example
 * import { duplicateItems } from '@hookgate/plans';
 * duplicateItems([{ a: 1, b: 2 }, 3, { b: 2, a: 1 }]); // [0, 2]
 * duplicateItems(['__proto__', '__proto__']); // [0, 1]
 */
export function duplicateItems(items: readonly unknown[]): [number, number] | undefined {
  const first = new Map<string, number>();
  let found: [number, number] | undefined;
  for (let i = 0; i < items.length; i++) {
    const key = canonical(items[i]);
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, i);
    else if (found === undefined || earlier < found[0]) found = [earlier, i];
  }
  return found;
}
