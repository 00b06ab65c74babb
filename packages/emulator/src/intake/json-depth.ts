/**
 * Where a parsed JSON value nests deeper than `maxDepth` levels (the value itself is level 1), as the
 * JSON path of the outermost field that holds the too-deep part (e.g. `$.batch[3].properties`), or
 * `undefined` when it does not. Walks with an explicit stack, never by recursion, so no depth can
 * overflow the call stack; it stops at the first value found too deep.
 *
 * @example
 * tooDeepAt({ type: 'track', properties: { a: { b: {} } } }, 3, '$'); // '$.properties'
 * tooDeepAt({ type: 'track', properties: { a: 1 } }, 3, '$'); // undefined
 */
export function tooDeepAt(value: unknown, maxDepth: number, path: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (maxDepth < 1) return path;
  // Each level's children: the top-level fields are walked one by one so that the answer can name the field.
  const top = value as Record<string, unknown> | unknown[];
  const keys = Array.isArray(top) ? undefined : Object.keys(top);
  const count = keys === undefined ? (top as unknown[]).length : keys.length;
  for (let i = 0; i < count; i++) {
    const child = keys === undefined ? (top as unknown[])[i] : (top as Record<string, unknown>)[keys[i] as string];
    if (nestsDeeper(child, maxDepth - 1))
      return keys === undefined ? `${path}[${i}]` : `${path}${fieldPath(keys[i] as string)}`;
  }
  return undefined;
}

/** Whether `value` has more than `levels` levels of arrays and objects. */
function nestsDeeper(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levels < 1) return true;
  const stack: unknown[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const v = stack.pop() as object;
    const depth = depths.pop() as number;
    const children: unknown[] = Array.isArray(v) ? v : Object.values(v);
    for (const child of children) {
      if (typeof child !== 'object' || child === null) continue;
      if (depth + 1 > levels) return true;
      stack.push(child);
      depths.push(depth + 1);
    }
  }
  return false;
}

/** `.name` for a plain identifier, `["odd key"]` otherwise. */
function fieldPath(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}
