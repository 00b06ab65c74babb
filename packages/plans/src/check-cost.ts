// What checking one message against a rule may cost, known before the check runs. A synchronous check
// cannot be interrupted, so the bound comes first: this walks the pairs (subschema, value) the validators
// would visit — every applicator taken as applying (all `anyOf` branches, `if`, `then` and `else`, every
// key for `patternProperties` and `additionalProperties`) — adding what each keyword costs on its value
// (`enum` and `const` sizes, pattern weight × string length, `uniqueItems` on the array's size), and stops
// as soon as the sum passes the budget, so the walk itself costs at most the budget's worth of steps. A
// unit is about a microsecond of the slowest validator (@cfworker/json-schema's interpreter) on this
// machine; bench/tracking-plan.ts measures the worst constructs at the budget.
import { patternWeight } from './pattern-weight.js';
import { resolveLocal } from './schema-walk.js';

type Schema = Record<string, unknown> | boolean;

/** How deep (subschema steps, `$ref`s and `allOf`s included) a check may go: the validators recurse per step. */
export const MAX_CHECK_DEPTH = 256;

/** Units (about 1 µs each) per visit of a subschema by one value, and per piece of work of each keyword. */
const VISIT = 15; // the interpreter's call for one subschema and one value, its errors and their paths
const PER_ITEM = 1 / 20; // a listed property, a required name, a key of the value, an enum value compared
const PER_CHAR = 1 / 200; // a character read by format, minLength, maxLength, or a key's pointer
const PER_PATTERN_CHAR = 1 / 100; // pattern weight × characters on the linear engine
const PER_ENUM_BYTE = 1 / 50; // the enum's JSON, which the interpreter writes into each failure
const PER_COMPARISON = 1 / 100; // two scalar items compared by the interpreter's uniqueItems
const PER_COMPARED_VALUE = 0.15; // a value read by its deep comparison of two object items
const PER_CANONICAL_VALUE = 2; // a value written in canonical form by the one-pass uniqueItems
const PER_KEY = 1 / 8; // a key of an object a subschema meets: the interpreter lists them at every visit

/** What a subschema costs on any value, and where its subschemas go, computed once per subschema. */
interface NodeCost {
  base: number;
  pattern: number;
  scansString: boolean;
  scansKeys: boolean;
  uniqueItems: boolean;
  same: Schema[];
  properties: [string, Schema][];
  patternProperties: [number, Schema][];
  eachProperty: Schema[];
  items: Schema[];
  eachItem: Schema[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSchema(value: unknown): value is Schema {
  return isObject(value) || typeof value === 'boolean';
}

/** Values in a JSON value (a scalar is 1), counted without recursion. */
function valueCount(value: unknown): number {
  let count = 0;
  const stack = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    count++;
    if (typeof item === 'object' && item !== null) for (const child of Object.values(item)) stack.push(child);
  }
  return count;
}

function nodeCost(node: Record<string, unknown>, root: Record<string, unknown>): NodeCost {
  const schemas = (value: unknown): Schema[] => (Array.isArray(value) ? value.filter(isSchema) : []);
  const one = (value: unknown): Schema[] => (isSchema(value) ? [value] : []);
  const entries = (value: unknown): [string, Schema][] =>
    isObject(value) ? Object.entries(value).filter((e): e is [string, Schema] => isSchema(e[1])) : [];
  const cost: NodeCost = {
    base: Object.keys(node).length * PER_ITEM,
    pattern: typeof node.pattern === 'string' ? patternWeight(node.pattern) : 0,
    scansString: node.format !== undefined || node.minLength !== undefined || node.maxLength !== undefined,
    scansKeys: [
      'additionalProperties',
      'patternProperties',
      'propertyNames',
      'minProperties',
      'maxProperties',
      'dependencies',
    ].some((keyword) => node[keyword] !== undefined),
    uniqueItems: node.uniqueItems === true,
    same: [
      ...schemas(node.allOf),
      ...schemas(node.anyOf),
      ...schemas(node.oneOf),
      ...one(node.not),
      ...one(node.if),
      ...one(node.then),
      ...one(node.else),
      ...entries(node.dependencies).map(([, schema]) => schema),
    ],
    properties: entries(node.properties),
    patternProperties: entries(node.patternProperties).map(([key, schema]) => [patternWeight(key), schema]),
    eachProperty: [...one(node.additionalProperties)],
    items: Array.isArray(node.items) ? schemas(node.items) : [],
    eachItem: [...one(Array.isArray(node.items) ? undefined : node.items), ...one(node.contains)],
  };
  if (Array.isArray(node.items)) cost.eachItem.push(...one(node.additionalItems));
  if (isSchema(node.propertyNames)) cost.patternProperties.push([0, node.propertyNames]);
  if (typeof node.$ref === 'string') cost.same.push(...one(resolveLocal(root, node.$ref)));
  if (Array.isArray(node.required)) cost.base += node.required.length * PER_ITEM;
  if (isObject(node.dependencies)) cost.base += Object.keys(node.dependencies).length * PER_ITEM;
  cost.base += cost.properties.length * PER_ITEM;
  if (Array.isArray(node.enum)) {
    cost.base += node.enum.length * PER_ITEM + JSON.stringify(node.enum).length * PER_ENUM_BYTE;
    cost.base += node.enum.reduce((sum: number, value) => sum + valueCount(value), 0) * PER_ITEM;
  }
  if (node.const !== undefined) cost.base += valueCount(node.const) * PER_ITEM;
  return cost;
}

/**
 * The cost model of one rule (internal): each subschema's own cost kept once it is known.
 *
 * @example
 * const model = new CheckCost(rule.jsonSchema, 'linear');
 * model.add(message, 200_000, 0); // the cost, or more than the budget when it passes it
 */
export class CheckCost {
  readonly #root: Record<string, unknown>;
  readonly #costs = new Map<Record<string, unknown>, NodeCost>();
  readonly #quadraticUnique: boolean;

  /** `uniqueItems` is `linear` (Ajv, with the keyword of unique-items.ts) or `quadratic` (the interpreter). */
  constructor(root: Record<string, unknown>, uniqueItems: 'linear' | 'quadratic') {
    this.#root = root;
    this.#quadraticUnique = uniqueItems === 'quadratic';
  }

  #of(node: Record<string, unknown>): NodeCost {
    let cost = this.#costs.get(node);
    if (cost === undefined) this.#costs.set(node, (cost = nodeCost(node, this.#root)));
    return cost;
  }

  /**
   * `spent` plus what checking `value` may cost; returns as soon as the sum passes `budget` (then it is
   * more than `budget`), or `Infinity` when the check would go deeper than `MAX_CHECK_DEPTH`.
   */
  add(value: unknown, budget: number, spent: number): number {
    // Each visit (a subschema meeting a value) is paid when it is pushed, so a million items are refused
    // before a million visits are stacked.
    let total = spent + VISIT;
    const stack: [Schema, unknown, number][] = [[this.#root, value, 0]];
    const keyCounts = new Map<object, number>();
    while (stack.length > 0) {
      if (total > budget) return total;
      const [schema, item, depth] = stack.pop()!;
      if (depth > MAX_CHECK_DEPTH) return Infinity;
      if (typeof schema === 'boolean') continue;
      const cost = this.#of(schema);
      total += cost.base + cost.same.length * VISIT;
      const next = depth + 1;
      for (const child of cost.same) stack.push([child, item, next]);
      if (typeof item === 'string') {
        if (cost.pattern > 0) total += cost.pattern * (item.length + 1) * PER_PATTERN_CHAR;
        if (cost.scansString) total += (item.length + 1) * PER_CHAR;
      } else if (Array.isArray(item)) {
        total += (Math.min(cost.items.length, item.length) + item.length * cost.eachItem.length) * VISIT;
        if (total > budget) return total;
        cost.items.forEach((child, i) => {
          if (i < item.length) stack.push([child, item[i], next]);
        });
        for (const element of item) for (const child of cost.eachItem) stack.push([child, element, next]);
        if (cost.uniqueItems) total = this.#unique(item, total, budget, depth);
      } else if (isObject(item)) {
        let keys = keyCounts.get(item);
        if (keys === undefined) keyCounts.set(item, (keys = Object.keys(item).length));
        total += keys * PER_KEY;
        for (const [name, child] of cost.properties) {
          if (Object.hasOwn(item, name)) {
            total += VISIT + name.length * PER_CHAR;
            stack.push([child, item[name], next]);
          }
        }
        if (cost.scansKeys) total = this.#keys(item, cost, total, budget, next, stack);
      }
    }
    return total;
  }

  /** The keys of an object, for `additionalProperties`, `patternProperties` and `propertyNames`. */
  #keys(
    item: Record<string, unknown>,
    cost: NodeCost,
    spent: number,
    budget: number,
    next: number,
    stack: [Schema, unknown, number][],
  ): number {
    let total = spent;
    const keys = Object.keys(item);
    const visits = cost.patternProperties.length + cost.eachProperty.length;
    total += keys.length * (PER_ITEM + visits * VISIT);
    if (total > budget) return total;
    for (const key of keys) {
      total += key.length * PER_CHAR;
      for (const [weight, child] of cost.patternProperties) {
        total += weight * (key.length + 1) * PER_PATTERN_CHAR;
        // propertyNames (weight 0) checks the key itself; a patternProperties schema, its value.
        stack.push([child, weight === 0 ? key : item[key], next]);
      }
      for (const child of cost.eachProperty) stack.push([child, item[key], next]);
      if (total > budget) return total;
    }
    return total;
  }

  /** `uniqueItems`: each element written in canonical form once (Ajv), or compared with every other (the interpreter). */
  #unique(item: unknown[], spent: number, budget: number, depth: number): number {
    let size = 0;
    for (const element of item) {
      if (typeof element !== 'object' || element === null) {
        size++;
        continue;
      }
      // Counted with their depth: both ways of comparing recurse into the elements.
      const stack: [unknown, number][] = [[element, depth]];
      while (stack.length > 0) {
        const [value, at] = stack.pop()!;
        size++;
        if (at > MAX_CHECK_DEPTH) return Infinity;
        if (spent + size * PER_CANONICAL_VALUE > budget) return spent + size * PER_CANONICAL_VALUE;
        if (typeof value === 'object' && value !== null)
          for (const child of Object.values(value)) stack.push([child, at + 1]);
      }
    }
    // Each value written once (about a microsecond a value), or each item compared with every other:
    // scalars by ===, objects by a deep comparison that reads them.
    const pairs = item.length * (item.length * PER_COMPARISON + (size - item.length) * PER_COMPARED_VALUE);
    return spent + (this.#quadraticUnique ? pairs : size * PER_CANONICAL_VALUE);
  }
}
