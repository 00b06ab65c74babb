// The Node build (dist/node/index.js) compiles a tracking plan given as JSON with Ajv, once per rule, and says
// exactly what the runtime-neutral build (the @cfworker/json-schema interpreter, Workers-safe) says: the
// same rules, paths, keywords and words, for the same messages. Both bundles are built from the sources
// here as tsup builds them (test/helpers/bundle.ts).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as CoreApi from '@hookgate/core';
import type * as PlansApi from '../src/index.js';
import { fixture } from '@hookgate/core';
import { bundlePlans, type PlansBundle } from './helpers/bundle.js';

type Core = typeof CoreApi & typeof PlansApi;

const fixtures = new URL('../../../test/fixtures/tracking-plans/', import.meta.url);
const read = (name: string): unknown => JSON.parse(readFileSync(new URL(name, fixtures), 'utf8'));

const order = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  fixture('track', { event: 'Order Completed', properties, ...extra });

const MESSAGES = [
  order({ order_id: 7, currency: 'GBP', products: [{ price: 3 }, { product_id: 'p', price: 'x' }] }),
  order({ order_id: 'o1', total: 12.5 }),
  order({ order_id: 'o1' }, { context: { protocols: { event_version: 2 } } }),
  fixture('track', { event: 'Signed Up', properties: {} }),
  fixture('track', { event: 'Order Complete' }),
  fixture('page', { properties: { title: 'Pricing' } }),
  fixture('identify', { traits: { email: 'not-an-email', logins: 1.5 } }),
  fixture('group', { traits: { employees: 3 } }),
  fixture('alias', { context: { library: { name: 7 } } }),
  fixture('screen'),
];

/** A rule using every common keyword, and a message breaking each (the words differ most here). */
const KEYWORDS_PLAN = [
  {
    type: 'TRACK',
    key: 'Keywords',
    version: 1,
    jsonSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        properties: {
          type: 'object',
          properties: {
            a: { minimum: 3, maximum: 5 },
            b: { minLength: 2, maxLength: 3 },
            c: { pattern: '^x' },
            d: { format: 'date-time' },
            e: { const: 1 },
            f: { multipleOf: 2.5 },
            g: { minItems: 2, uniqueItems: true },
            h: { exclusiveMinimum: 1, exclusiveMaximum: 2 },
            i: { anyOf: [{ type: 'string' }, { type: 'number' }] },
            j: { not: { type: 'string' } },
            k: { oneOf: [{ type: 'string' }] },
            l: { maxProperties: 0, minProperties: 2 },
            m: { items: { maximum: -1.5 }, maxItems: 1 },
          },
        },
      },
    },
  },
];
const KEYWORD_MESSAGES = [
  { a: 1, b: 'abcd', c: 'y', d: 'nope', e: 2, f: 3, g: [1, 1], h: 1, i: null, j: 's', k: 1, l: { x: 1 }, m: [0, 1] },
  { a: 9, b: 'a', g: [1], h: 2 },
].map((properties) => fixture('track', { event: 'Keywords', properties }));

let neutral: PlansBundle;
let node: PlansBundle;
beforeAll(async () => {
  neutral = await bundlePlans('neutral');
  node = await bundlePlans('node');
});
afterAll(() => {
  neutral?.remove();
  node?.remove();
});

describe('the Node build compiles plans with Ajv', () => {
  it('holds Ajv (code generation); the runtime-neutral build does not', () => {
    const nodeText = readFileSync(node.file, 'utf8');
    const neutralText = readFileSync(neutral.file, 'utf8');
    expect(nodeText).toMatch(/new Function\(/);
    expect(nodeText).toContain('ajv');
    expect(neutralText).not.toMatch(/new Function\(/);
    expect(neutralText).toContain('@cfworker/json-schema');
  });

  it.each([
    ['the Public API export', 'public-api-rules.json'],
    ['the Terraform export', 'terraform-rules.json'],
    ['a rule with every common keyword', KEYWORDS_PLAN],
  ])('reports the same violations as the interpreter, for %s', async (_name, file) => {
    const plan = typeof file === 'string' ? read(file) : file;
    const plans = await Promise.all(
      [neutral, node].map(async (b) => ((await import(b.file)) as Core).compileTrackingPlan(plan)),
    );
    const results = [...MESSAGES, ...KEYWORD_MESSAGES].map((m) =>
      plans.map((p) => {
        const { planned, rule, violations } = p.check(m);
        const sorted = violations.map((v) => `${v.rule} ${v.path} [${v.keyword}] ${v.message}`).sort();
        return { planned, rule, sorted };
      }),
    );
    const violations = results.flatMap(([a]) => a!.sorted);
    if (file === 'public-api-rules.json') {
      expect(violations.length).toBeGreaterThan(8); // the comparison is not of empty lists
      expect(violations).toContain(
        'TRACK "Order Completed" v1 properties.currency [enum] must be equal to one of the allowed values: "EUR", "USD"',
      );
    }
    if (file === KEYWORDS_PLAN) {
      expect(violations.length).toBe(23);
      expect(violations).toContain('TRACK "Keywords" v1 properties.c [pattern] must match pattern "^x"');
    }
    for (const [interpreted, ajv] of results) expect(ajv).toEqual(interpreted);
  });

  it('a receiver of the Node build checks a JSON plan on every message: ctx.violations', async () => {
    const core = (await import(node.file)) as Core;
    const seen: string[][] = [];
    const receiver = core.createReceiver({
      secret: 's',
      dedupe: false,
      trackingPlan: core.compileTrackingPlan(read('public-api-rules.json')),
      on: { track: { 'Order Completed': (_msg, ctx) => void seen.push(ctx.violations.map((v) => v.path)) } },
    });
    for (const properties of [{ order_id: 'o', total: 1 }, { total: '1' }]) {
      const body = JSON.stringify(order(properties));
      const answer = await receiver.handle({
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-signature': core.sign(body, 's') },
        rawBody: body,
      });
      expect(answer.status).toBe(200);
    }
    expect(seen).toEqual([[], ['properties.order_id', 'properties.total']]);
  });

  it('runs pattern and patternProperties on RE2 through Ajv: ^(a+)+$ against 10 KB in milliseconds', async () => {
    const core = (await import(node.file)) as Core;
    const plan = core.compileTrackingPlan([
      {
        type: 'TRACK',
        key: 'Signed Up',
        jsonSchema: {
          properties: {
            properties: {
              properties: { code: { type: 'string', pattern: '^(a+)+$' } },
              patternProperties: { '^(a+)+$': { type: 'number' } },
            },
          },
        },
      },
    ]);
    const hostile = `${'a'.repeat(10 * 1024)}!`;
    const message = {
      type: 'track',
      event: 'Signed Up',
      properties: { code: hostile, [`${'a'.repeat(10 * 1024)}`]: 'x' },
    };
    plan.check({ type: 'track', event: 'Signed Up', properties: {} }); // compiled
    const start = process.cpuUsage();
    const { violations } = plan.check(message);
    const used = process.cpuUsage(start);
    expect((used.user + used.system) / 1000).toBeLessThan(50);
    expect(violations.map((v) => `${v.path.slice(0, 20)} ${v.keyword}`).sort()).toEqual([
      'properties.aaaaaaaaa type',
      'properties.code pattern',
    ]);
    // The neutral build has no linear engine for patternProperties' keys: it refuses them at start.
    const neutralCore = (await import(neutral.file)) as Core;
    expect(() =>
      neutralCore.compileTrackingPlan([
        { type: 'TRACK', key: 'P', jsonSchema: { patternProperties: { '^a': { type: 'number' } } } },
      ]),
    ).toThrow(/patternProperties run only where the plan is compiled by Ajv/);
  });
});
