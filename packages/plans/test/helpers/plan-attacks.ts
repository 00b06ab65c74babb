// Hostile pairs of a tracking plan and one message within the body limit (1 MiB): the rows of issue 44's
// table and constructs it does not name. Shared by tracking-plan-bounds.test.ts (each run in a child
// process against a built bundle) and bench/tracking-plan.ts (the time of each check).

/** One attack: a plan, a message, and what today's code did with it (for the test's margins). */
export interface PlanAttack {
  name: string;
  plan: unknown[];
  message: () => unknown;
  /** The body as sent, when `JSON.stringify` cannot write the message (nested past its stack). */
  body?: () => string;
}

/** A TRACK rule "Attack" whose `properties` have the given property schemas (and `extra` beside them). */
export function attackRule(properties: Record<string, unknown>, extra: Record<string, unknown> = {}): unknown {
  return {
    type: 'TRACK',
    key: 'Attack',
    version: 1,
    jsonSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      ...extra,
      properties: { properties: { type: 'object', properties } },
    },
  };
}

/** The message "Attack" with the given properties. */
export function attackMessage(properties: Record<string, unknown>): unknown {
  return {
    type: 'track',
    event: 'Attack',
    userId: 'u1',
    messageId: 'm1',
    timestamp: '2026-12-08T00:00:00.000Z',
    version: 1,
    properties,
  };
}

const KB32 = 32 * 1024;
const MB1 = 1_000_000;
const ENUM_2000 = Array.from({ length: 2_000 }, (_, i) => `value-${i}`);
const PATTERNS_200 = Array.from({ length: 200 }, (_, i) => ({ type: 'string', pattern: `^p${i}-[a-z]+$` }));
const HEAVY_PATTERN = '^[ab]*a[ab]{999}$';

/** `$ref`s fanning out two ways per level: `levels` definitions, 2^levels schemas once expanded. */
export function fanOutRefs(levels: number): unknown {
  const definitions: Record<string, unknown> = { [`d${levels}`]: { type: 'string' } };
  for (let i = 0; i < levels; i++) {
    definitions[`d${i}`] = { allOf: [{ $ref: `#/definitions/d${i + 1}` }, { $ref: `#/definitions/d${i + 1}` }] };
  }
  return attackRule({ x: { $ref: '#/definitions/d0' } }, { definitions });
}

/** The rows of the table (those of item 1) and the attacks beyond them. */
export const PLAN_ATTACKS: readonly PlanAttack[] = [
  {
    name: 'items enum of 2,000 values, 32 KB array of 0',
    plan: [attackRule({ list: { type: 'array', items: { enum: ENUM_2000 } } })],
    message: () => attackMessage({ list: Array.from({ length: KB32 / 2 }, () => 0) }),
  },
  {
    name: 'items enum of 2,000 values, 1 MB array of 0',
    plan: [attackRule({ list: { type: 'array', items: { enum: ENUM_2000 } } })],
    message: () => attackMessage({ list: Array.from({ length: MB1 / 2 - 200 }, () => 0) }),
  },
  {
    name: 'items anyOf of 200 patterns, 32 KB array',
    plan: [attackRule({ list: { type: 'array', items: { anyOf: PATTERNS_200 } } })],
    message: () => attackMessage({ list: Array.from({ length: KB32 / 4 }, () => 'x') }),
  },
  {
    name: 'pattern of weight 17,000 on a 1 MB string',
    plan: [attackRule({ code: { type: 'string', pattern: HEAVY_PATTERN } })],
    message: () => attackMessage({ code: 'ab'.repeat(MB1 / 2 - 100) }),
  },
  {
    name: 'patternProperties of weight 17,000 on a 1 MB key',
    plan: [attackRule({}, { patternProperties: { [HEAVY_PATTERN]: { type: 'string' } } })],
    message: () => ({ ...(attackMessage({}) as object), ['ab'.repeat(MB1 / 2 - 100)]: 'x' }),
  },
  {
    name: 'format url on 100 KB',
    plan: [attackRule({ site: { type: 'string', format: 'url' } })],
    message: () => attackMessage({ site: `http://${':'.repeat(100_000)}` }),
  },
  {
    name: 'format url on 40 letters and a "!"',
    plan: [attackRule({ site: { type: 'string', format: 'url' } })],
    message: () => attackMessage({ site: `http://${'a'.repeat(40)}!` }),
  },
  {
    name: 'uniqueItems on 1 MB of numbers',
    plan: [attackRule({ list: { type: 'array', uniqueItems: true } })],
    message: () => attackMessage({ list: Array.from({ length: 140_000 }, (_, i) => i) }),
  },
  {
    name: 'uniqueItems on 32 KB of objects',
    plan: [attackRule({ list: { type: 'array', uniqueItems: true } })],
    message: () => attackMessage({ list: Array.from({ length: 3_200 }, (_, i) => ({ a: i })) }),
  },
  {
    name: 'uniqueItems on 1 MB of objects',
    plan: [attackRule({ list: { type: 'array', uniqueItems: true } })],
    message: () => attackMessage({ list: Array.from({ length: 85_000 }, (_, i) => ({ a: i })) }),
  },
  {
    name: 'uniqueItems on ["__proto__", "__proto__"]',
    plan: [attackRule({ list: { type: 'array', items: { type: 'string' }, uniqueItems: true } })],
    message: () => attackMessage({ list: ['__proto__', '__proto__'] }),
  },
  {
    name: '$refs fanning out two ways, 28 levels',
    plan: [fanOutRefs(28)],
    message: () => attackMessage({ x: 'a' }),
  },
  {
    name: '$refs fanning out two ways, 40 levels',
    plan: [fanOutRefs(40)],
    message: () => attackMessage({ x: 'a' }),
  },
  {
    name: 'a 500 KB rule',
    plan: [
      attackRule(
        Object.fromEntries(
          Array.from({ length: 8_000 }, (_, i) => [`property_${i}`, { type: 'string', maxLength: 40, minLength: 1 }]),
        ),
      ),
    ],
    message: () => attackMessage({ property_1: 'x' }),
  },
  {
    name: 'recursive $ref, data nested 10,000 deep',
    plan: [
      attackRule(
        { tree: { $ref: '#/definitions/node' } },
        { definitions: { node: { type: 'object', properties: { child: { $ref: '#/definitions/node' } } } } },
      ),
    ],
    message: () => attackMessage({ tree: {} }),
    body: () => {
      const text = JSON.stringify(attackMessage({ tree: 'TREE' }));
      return text.replace('"TREE"', `${'{"child":'.repeat(10_000)}{}${'}'.repeat(10_000)}`);
    },
  },
  {
    name: '$id inside a subschema',
    plan: [attackRule({ x: { $id: 'https://example.com/x', type: 'string' } })],
    message: () => attackMessage({ x: 'a' }),
  },
  // Beyond the table.
  {
    name: 'contains anyOf of 200 patterns, 32 KB array',
    plan: [attackRule({ list: { type: 'array', contains: { anyOf: PATTERNS_200 } } })],
    message: () => attackMessage({ list: Array.from({ length: KB32 / 4 }, () => 'x') }),
  },
  {
    name: 'propertyNames pattern of weight 17,000 on a 1 MB key',
    plan: [attackRule({ bag: { type: 'object', propertyNames: { pattern: HEAVY_PATTERN } } })],
    message: () => attackMessage({ bag: { ['ab'.repeat(MB1 / 2 - 100)]: 1 } }),
  },
  {
    name: 'additionalProperties enum of 2,000 values, 32 KB of keys',
    plan: [attackRule({ bag: { type: 'object', additionalProperties: { enum: ENUM_2000 } } })],
    message: () => attackMessage({ bag: Object.fromEntries(Array.from({ length: 3_000 }, (_, i) => [`k${i}`, 0])) }),
  },
  {
    name: 'allOf chain 25 deep on each item of a 1 MB array',
    plan: [
      (() => {
        let schema: Record<string, unknown> = { not: { type: 'string' } };
        for (let i = 0; i < 25; i++) schema = { allOf: [schema] };
        return attackRule({ list: { type: 'array', items: schema } });
      })(),
    ],
    message: () => attackMessage({ list: Array.from({ length: MB1 / 2 - 200 }, () => 0) }),
  },
  {
    name: 'if/then/else on each key of a 1 MB object',
    plan: [
      attackRule({
        bag: {
          type: 'object',
          additionalProperties: { if: { type: 'number' }, then: { minimum: 5 }, else: { not: { type: 'null' } } },
        },
      }),
    ],
    message: () => attackMessage({ bag: Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`${i}`, 1])) }),
  },
  {
    name: 'dependencies on a 1 MB object',
    plan: [
      attackRule({
        bag: {
          type: 'object',
          dependencies: Object.fromEntries(
            Array.from({ length: 1_000 }, (_, i) => [
              `${i}`,
              { required: [`x${i}`], properties: { a: { enum: [1, 2] } } },
            ]),
          ),
        },
      }),
    ],
    message: () => attackMessage({ bag: Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`${i}`, 1])) }),
  },
  {
    name: 'items type on 5,000 numbers (5,000 violations)',
    plan: [attackRule({ list: { type: 'array', items: { type: 'string' } } })],
    message: () => attackMessage({ list: Array.from({ length: 5_000 }, (_, i) => i) }),
  },
  {
    name: 'enum of 2,000 values, one value wrong',
    plan: [attackRule({ plan: { enum: ENUM_2000 } })],
    message: () => attackMessage({ plan: 'nope' }),
  },
  {
    name: 'minLength on 1 MB of astral characters',
    plan: [attackRule({ text: { type: 'string', minLength: 1, maxLength: 10 } })],
    message: () => attackMessage({ text: '😀'.repeat(MB1 / 4 - 100) }),
  },
  {
    name: 'const of a 400 KB object',
    plan: [
      attackRule({
        blob: { const: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, [i, i]])) },
      }),
    ],
    message: () =>
      attackMessage({ blob: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, [i, i + 1]])) }),
  },
];

/** An attack whose message grows with `n`: the bench finds the largest `n` still checked and times it. */
export interface SizedPlanAttack {
  name: string;
  plan: unknown[];
  message: (n: number) => unknown;
}

const strings = (n: number, value: string) => Array.from({ length: n }, () => value);
const keyed = (n: number, value: unknown) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, value]));

/** The attacks above, sized, and an ordinary rule on a message of growing size. */
export const SIZED_ATTACKS: readonly SizedPlanAttack[] = [
  {
    name: 'items enum of 2,000 values (n items)',
    plan: [attackRule({ list: { type: 'array', items: { enum: ENUM_2000 } } })],
    message: (n) => attackMessage({ list: Array.from({ length: n }, () => 0) }),
  },
  {
    name: 'items anyOf of 200 patterns (n items)',
    plan: [attackRule({ list: { type: 'array', items: { anyOf: PATTERNS_200 } } })],
    message: (n) => attackMessage({ list: strings(n, 'x') }),
  },
  {
    name: 'pattern of weight 17,000 (n characters)',
    plan: [attackRule({ code: { type: 'string', pattern: HEAVY_PATTERN } })],
    message: (n) => attackMessage({ code: 'ab'.repeat(n / 2) }),
  },
  {
    name: 'patternProperties of weight 17,000 (a key of n characters)',
    plan: [attackRule({}, { patternProperties: { [HEAVY_PATTERN]: { type: 'string' } } })],
    message: (n) => ({ ...(attackMessage({}) as object), ['ab'.repeat(n / 2)]: 'x' }),
  },
  {
    name: 'format url (n characters)',
    plan: [attackRule({ site: { type: 'string', format: 'url' } })],
    message: (n) => attackMessage({ site: `http://${':'.repeat(n)}` }),
  },
  {
    name: 'uniqueItems (n numbers)',
    plan: [attackRule({ list: { type: 'array', uniqueItems: true } })],
    message: (n) => attackMessage({ list: Array.from({ length: n }, (_, i) => i) }),
  },
  {
    name: 'uniqueItems (n objects)',
    plan: [attackRule({ list: { type: 'array', uniqueItems: true } })],
    message: (n) => attackMessage({ list: Array.from({ length: n }, (_, i) => ({ a: i, b: [i] })) }),
  },
  {
    name: 'contains anyOf of 200 patterns (n items)',
    plan: [attackRule({ list: { type: 'array', contains: { anyOf: PATTERNS_200 } } })],
    message: (n) => attackMessage({ list: strings(n, 'x') }),
  },
  {
    name: 'additionalProperties enum of 2,000 values (n keys)',
    plan: [attackRule({ bag: { type: 'object', additionalProperties: { enum: ENUM_2000 } } })],
    message: (n) => attackMessage({ bag: keyed(n, 0) }),
  },
  {
    name: 'if/then/else on each key (n keys)',
    plan: [
      attackRule({
        bag: {
          type: 'object',
          additionalProperties: { if: { type: 'number' }, then: { minimum: 5 }, else: { not: { type: 'null' } } },
        },
      }),
    ],
    message: (n) => attackMessage({ bag: keyed(n, 1) }),
  },
  {
    name: 'items of 20 properties, each broken (n items)',
    plan: [
      attackRule({
        list: {
          type: 'array',
          items: {
            type: 'object',
            properties: Object.fromEntries(
              Array.from({ length: 20 }, (_, i) => [`p${i}`, { type: 'string', minLength: 2 }]),
            ),
          },
        },
      }),
    ],
    message: (n) =>
      attackMessage({
        list: Array.from({ length: n }, () => Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, i]))),
      }),
  },
];
