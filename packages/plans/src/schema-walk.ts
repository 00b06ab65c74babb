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
    for (const [keys, child] of childSchemas(node)) stack.push([child, [...path, ...keys]]);
  }
}

/** The subschemas a schema holds under its keywords (not a `$ref`'s target), each with its keys. */
function childSchemas(node: Record<string, unknown>): [string[], Record<string, unknown>][] {
  const children: [string[], Record<string, unknown>][] = [];
  for (const keyword of SCHEMA_MAPS) {
    const map = node[keyword];
    if (!isObject(map)) continue;
    for (const [name, child] of Object.entries(map)) if (isObject(child)) children.push([[keyword, name], child]);
  }
  for (const keyword of SCHEMA_LISTS) {
    const list = node[keyword];
    if (!Array.isArray(list)) continue;
    list.forEach((child, i) => {
      if (isObject(child)) children.push([[keyword, String(i)], child]);
    });
  }
  for (const keyword of SCHEMA_ONES) {
    const child = node[keyword];
    if (isObject(child)) children.push([[keyword], child]);
  }
  return children;
}

/** Keywords that only annotate a schema: they cost a compiler nothing. */
const ANNOTATIONS = new Set(['$schema', '$id', '$comment', 'title', 'description', 'examples', 'default']);

/** The keywords of a schema a compiler turns into code (at least one). */
function keywordCount(node: Record<string, unknown>): number {
  let count = 0;
  for (const key of Object.keys(node)) if (!ANNOTATIONS.has(key)) count++;
  return Math.max(count, 1);
}

/**
 * How many keywords a rule holds once each `$ref` is counted as the schema it points at, every time
 * it is used (a `$ref` back to a schema it is inside counts once: it recurses only as deep as the data),
 * counted without recursion and with each schema's count kept, so `$ref`s that fan out two per level
 * cost their levels, not 2^levels. Stops past `limit`, returning the path where it passed it (internal).
 *
 * @example
 * expandedSize({ definitions: { a: { type: 'string' } }, items: [{ $ref: '#/definitions/a' }] }, 100).size; // 5
 */
export function expandedSize(root: Record<string, unknown>, limit: number): { size: number; path?: string[] } {
  interface Frame {
    node: Record<string, unknown>;
    path: string[];
    children: [string[], Record<string, unknown>][];
    next: number;
    total: number;
  }
  const counted = new Map<Record<string, unknown>, number>();
  const open = new Set<Record<string, unknown>>();
  const stack: Frame[] = [];
  const enter = (node: Record<string, unknown>, path: string[]) => {
    const children = childSchemas(node);
    const target = typeof node.$ref === 'string' ? resolveLocal(root, node.$ref) : undefined;
    if (isObject(target)) children.push([['$ref'], target]);
    open.add(node);
    stack.push({ node, path, children, next: 0, total: keywordCount(node) });
  };
  enter(root, []);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.total > limit) return { size: limit + 1, path: frame.path };
    if (frame.next < frame.children.length) {
      const [keys, child] = frame.children[frame.next++]!;
      const known = counted.get(child);
      if (known !== undefined) frame.total += known;
      else if (open.has(child)) frame.total += keywordCount(child);
      else enter(child, [...frame.path, ...keys]);
      continue;
    }
    stack.pop();
    open.delete(frame.node);
    counted.set(frame.node, frame.total);
    const parent = stack[stack.length - 1];
    if (parent === undefined) return { size: frame.total };
    parent.total += frame.total;
  }
  return { size: 0 };
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
