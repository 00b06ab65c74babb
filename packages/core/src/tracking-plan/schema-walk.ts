// Visiting every subschema of a rule's JSON Schema (draft-07) without recursion, so that no plan, however
// deep, can exhaust the stack: only the keywords that hold schemas are entered, never data (`enum`,
// `const`, `default`, `examples`), so a property named `pattern` is not taken for the keyword.

/** Keywords whose value is a map of names to schemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', 'dependencies'] as const;
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'items'] as const;
/** Keywords whose value is one schema. */
const SCHEMA_ONES = [
  'items',
  'additionalItems',
  'additionalProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Calls `visit` for the schema and each subschema (objects only; `true`/`false` schemas have nothing to
 * check), with its path from the root as keys (`['properties', 'properties', 'properties', 'sku']`).
 *
 * @example
 * eachSubschema(schema, (node, path) => {
 *   if (typeof node.pattern === 'string') console.log(path.join('.'), node.pattern);
 * });
 */
export function eachSubschema(
  root: Record<string, unknown>,
  visit: (node: Record<string, unknown>, path: readonly string[]) => void,
): void {
  const stack: [Record<string, unknown>, string[]][] = [[root, []]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    visit(node, path);
    for (const keyword of SCHEMA_MAPS) {
      const map = node[keyword];
      if (!isObject(map)) continue;
      for (const [name, child] of Object.entries(map))
        if (isObject(child)) stack.push([child, [...path, keyword, name]]);
    }
    for (const keyword of SCHEMA_LISTS) {
      const list = node[keyword];
      if (!Array.isArray(list)) continue;
      list.forEach((child, i) => {
        if (isObject(child)) stack.push([child, [...path, keyword, String(i)]]);
      });
    }
    for (const keyword of SCHEMA_ONES) {
      const child = node[keyword];
      if (isObject(child)) stack.push([child, [...path, keyword]]);
    }
  }
}

/**
 * How deep a JSON value nests (a scalar is 0, `{}` and `[]` are 1), counted without recursion and
 * stopping once past `limit` (then `limit + 1` is returned).
 *
 * @example
 * nestingDepth({ a: [{ b: 1 }] }, 64); // 3
 */
export function nestingDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    const here = depth + 1;
    if (here > deepest) deepest = here;
    if (deepest > limit) return limit + 1;
    for (const child of Object.values(item)) if (typeof child === 'object' && child !== null) stack.push([child, here]);
  }
  return deepest;
}
