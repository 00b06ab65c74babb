// Visiting every subschema of a rule's JSON Schema (draft-07) without recursion, so that no plan, however
// deep, can exhaust the stack: only the keywords that hold schemas are entered, never data (`enum`,
// `const`, `default`, `examples`), so a property named `pattern` is not taken for the keyword; and every
// schema a local `$ref` points at, wherever it sits (`#/$defs/x`, `#/x-anything/y`), since the
// validators follow such a pointer to any place in the rule.

/** Keywords whose value is a map of names to schemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', '$defs', 'dependencies'] as const;
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
 * What a local `$ref` (`#`, `#/definitions/x`, `#/properties/properties`) points at inside `root`, or
 * `undefined` (internal).
 *
 * @example
 * resolveLocal({ definitions: { id: { type: 'string' } } }, '#/definitions/id'); // { type: 'string' }
 */
export function resolveLocal(root: Record<string, unknown>, ref: string): unknown {
  const keys = pointerKeys(ref);
  if (keys === undefined) return undefined;
  let node: unknown = root;
  for (const key of keys) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** The keys from the root a local `$ref` names (`#/$defs/id` → `['$defs', 'id']`); `undefined` when not local. */
function pointerKeys(ref: string): string[] | undefined {
  if (ref === '#') return [];
  if (!ref.startsWith('#/')) return undefined;
  try {
    return ref
      .slice(2)
      .split('/')
      .map((raw) => decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~'));
  } catch {
    return undefined;
  }
}

/**
 * Calls `visit` once for the schema and each subschema (objects only; `true`/`false` schemas have nothing
 * to check), with its path from the root as keys (`['properties', 'properties', 'properties', 'sku']`);
 * the schema a local `$ref` points at is visited too, at the path its pointer names.
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
  const seen = new Set<Record<string, unknown>>();
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    // Resolved before `visit`, which may rewrite the `$ref`.
    const target = typeof node.$ref === 'string' ? resolveLocal(root, node.$ref) : undefined;
    visit(node, path);
    if (isObject(target)) stack.push([target, pointerKeys(node.$ref as string)!]);
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
