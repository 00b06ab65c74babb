// A message whose big numbers were kept as exact digits (`bigNumbers: 'string'`) checked as the numbers
// they are: the rule runs on a view of the message with a double standing in at each of those places
// (so `type: number` holds), and at each of them the verdicts a double could get wrong (`type: integer`,
// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, set on the property's own
// schema) are made again on the exact digits (exact-decimal.ts).
import { compareDecimal, isMultipleOfDecimal, isWholeDecimal, parseDecimal, type Decimal } from './exact-decimal.js';
import type { PlanViolation } from './json-schema-validator.js';
import { resolveLocal } from './schema-walk.js';

/**
 * A number of a message kept as its exact text: where (keys and indexes) and the text.
 *
 * @example
 * const n: ExactNumber = { at: ['properties', 'total'], text: '12345678901234567890123' };
 */
export interface ExactNumber {
  /** Where it is, as keys and array indexes from the message. */
  readonly at: readonly (string | number)[];
  /** The number exactly as the body wrote it, e.g. `12345678901234567890123`. */
  readonly text: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The double standing in for a text: its value, kept finite (a double's `Infinity` is not a JSON number). */
function standIn(text: string): number {
  const value = Number(text);
  if (value === Infinity) return Number.MAX_VALUE;
  if (value === -Infinity) return -Number.MAX_VALUE;
  return value;
}

/**
 * A copy of the message with a double at each exact number's place (only the objects on the way are
 * copied); places that no longer hold the text are left alone.
 *
 * @example
 * withStandIns({ properties: { n: '12345678901234567890' } }, [{ at: ['properties', 'n'], text: '12345678901234567890' }]);
 * // { properties: { n: 12345678901234567000 } }
 */
export function withStandIns(message: unknown, exact: readonly ExactNumber[]): unknown {
  // Each object or array on the way is copied once, however many numbers sit under it: a copy per
  // number made an array of thousands of them cost its length once per number.
  const copies = new Set<object>();
  const own = (value: object): Record<string | number, unknown> => {
    if (copies.has(value)) return value as Record<string | number, unknown>;
    const copy = Array.isArray(value) ? [...(value as unknown[])] : { ...value };
    copies.add(copy);
    return copy;
  };
  let root = message;
  for (const { at, text } of exact) {
    if (at.length === 0) continue;
    if (!isRecord(root)) break;
    root = own(root);
    let node: Record<string | number, unknown> | undefined = root as Record<string | number, unknown>;
    for (const key of at.slice(0, -1)) {
      const next: unknown = node[key];
      node = isRecord(next) ? (node[key] = own(next)) : undefined;
      if (node === undefined) break;
    }
    const last = at[at.length - 1]!;
    if (node !== undefined && node[last] === text) node[last] = standIn(text);
  }
  return root;
}

/** The schema that applies to the value at `at`, through `properties`, `items` and local `$ref`s. */
function schemaAt(
  root: Record<string, unknown>,
  at: readonly (string | number)[],
): Record<string, unknown> | undefined {
  let node: unknown = root;
  const follow = (n: unknown) => {
    for (let hops = 0; isRecord(n) && typeof n.$ref === 'string' && hops < 32; hops++) n = resolveLocal(root, n.$ref);
    return n;
  };
  for (const key of at) {
    node = follow(node);
    if (!isRecord(node)) return undefined;
    const props = node.properties;
    const items = node.items;
    if (typeof key === 'string' && isRecord(props) && Object.hasOwn(props, key)) node = props[key];
    else if (typeof key === 'number' && Array.isArray(items)) node = items[key] ?? node.additionalItems;
    else if (typeof key === 'number' && isRecord(items)) node = items;
    else if (typeof key === 'string' && isRecord(node.additionalProperties)) node = node.additionalProperties;
    else return undefined;
  }
  node = follow(node);
  return isRecord(node) ? node : undefined;
}

/** The verdicts a double can get wrong, in the validators' words. */
const EXACT_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] as const;
const WORDS: Record<(typeof EXACT_KEYWORDS)[number], [(order: number) => boolean, string]> = {
  minimum: [(o) => o >= 0, '>='],
  maximum: [(o) => o <= 0, '<='],
  exclusiveMinimum: [(o) => o > 0, '>'],
  exclusiveMaximum: [(o) => o < 0, '<'],
  multipleOf: [() => true, ''],
};

function exactVerdicts(schema: Record<string, unknown>, value: Decimal, path: string): PlanViolation[] {
  const found: PlanViolation[] = [];
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('integer') && !types.includes('number') && !isWholeDecimal(value)) {
    found.push({ path, message: `must be ${types.join(',')} (got number)`, keyword: 'type' });
  }
  for (const keyword of EXACT_KEYWORDS) {
    const limit = schema[keyword];
    const bound = typeof limit === 'number' ? parseDecimal(String(limit)) : undefined;
    if (bound === undefined) continue;
    if (keyword === 'multipleOf') {
      if (bound.digits !== '' && !bound.negative && !isMultipleOfDecimal(value, bound)) {
        found.push({ path, message: `must be multiple of ${limit as number}`, keyword });
      }
      continue;
    }
    const [holds, sign] = WORDS[keyword];
    if (!holds(compareDecimal(value, bound)))
      found.push({ path, message: `must be ${sign} ${limit as number}`, keyword });
  }
  return found;
}

/**
 * A rule's violations of the stand-in view made exact: at each exact number's place, the verdicts of
 * `type` (where the schema asks for a number or an integer) and of the numeric limits are replaced by
 * verdicts on the exact digits.
 *
 * @example
 * exactViolations(violations, rule.jsonSchema, [{ at: ['properties', 'n'], text: '12345678901234567891' }], pathOf);
 */
export function exactViolations(
  violations: readonly PlanViolation[],
  schema: Record<string, unknown>,
  exact: readonly ExactNumber[],
): readonly PlanViolation[] {
  // Which verdicts each exact number's place makes again, found once per number, then one pass over the
  // violations (a filter of them all per number cost their count once per number).
  const places: { path: string; redone: (v: PlanViolation) => boolean; verdicts: PlanViolation[] }[] = [];
  const byPath = new Map<string, number[]>();
  for (const { at, text } of exact) {
    const node = schemaAt(schema, at);
    const value = parseDecimal(text);
    if (node === undefined || value === undefined) continue;
    const path = at.join('.');
    const types = Array.isArray(node.type) ? node.type : [node.type];
    const numeric = types.includes('number') || types.includes('integer');
    // Only the verdicts of the keywords the property's own schema carries are made again; one from a
    // limit elsewhere (inside `allOf`, say) stays as the stand-in got it.
    const redone = (v: PlanViolation) =>
      v.path === path &&
      ((v.keyword === 'type' && numeric) ||
        ((EXACT_KEYWORDS as readonly string[]).includes(v.keyword) && typeof node[v.keyword] === 'number'));
    const list = byPath.get(path);
    if (list === undefined) byPath.set(path, [places.length]);
    else list.push(places.length);
    places.push({ path, redone, verdicts: exactVerdicts(node, value, path) });
  }
  if (places.length === 0) return violations;
  // A verdict stays unless a place at its path, later than the verdict was made, makes it again.
  const kept = (v: PlanViolation, after: number) =>
    !(byPath.get(v.path) ?? []).some((i) => i > after && places[i]!.redone(v));
  const result = violations.filter((v) => kept(v, -1));
  places.forEach(({ verdicts }, i) => {
    for (const v of verdicts) if (kept(v, i)) result.push(v);
  });
  return result;
}
