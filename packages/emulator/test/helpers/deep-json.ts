// JSON text nested thousands of levels deep, built as text (no recursion, so no stack needed to make it):
// what the intake's depth rule is tested with.

/**
 * An object nested `depth` levels: `{"a":{"a":...{}}}`.
 *
 * @example
 * deepObjectText(3); // '{"a":{"a":{}}}'
 */
export function deepObjectText(depth: number): string {
  return '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
}

/**
 * An array nested `depth` levels: `[[...[]]]`.
 *
 * @example
 * deepArrayText(3); // '[[[]]]'
 */
export function deepArrayText(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}
