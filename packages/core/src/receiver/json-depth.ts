/**
 * How deep a batch element may nest (objects and arrays): an explicit bound, so that the answer is the
 * same on every runtime and thread, whatever its stack (a bigger stack would otherwise serialize what a
 * smaller one refuses).
 *
 * @example
 * if (nestsDeeperThan(element, MAX_ELEMENT_DEPTH)) console.warn('refused: 400');
 */
export const MAX_ELEMENT_DEPTH = 1_000;

/**
 * Whether a parsed JSON value nests objects and arrays deeper than `limit` levels, walked without
 * recursion (it never touches the stack's limit itself).
 *
 * @example
 * nestsDeeperThan([[1]], 1); // true
 * nestsDeeperThan({ a: [1] }, 2); // false
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Object.values(item)) {
      if (typeof child === 'object' && child !== null) pending.push([child, depth + 1]);
    }
  }
  return false;
}
