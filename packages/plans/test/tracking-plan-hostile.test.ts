// A tracking plan is input, and so is every message checked against it: patterns run on RE2 in linear
// time (a catastrophic pattern costs milliseconds, a pattern RE2 cannot run is refused at start naming the
// rule, the path and the construct), plans of real size start at once, and absurd ones are refused at
// start with the rule and the limit named — never a RangeError, a hang, or a first request that pays it.
import { afterEach, describe, expect, it } from 'vitest';
import {
  createReceiver,
  fixture,
  type CompiledTrackingPlan,
  type PlanCheckResult,
  type PlanViolation,
} from '@hookgate/core';
import { compileTrackingPlan, TrackingPlanError } from '../src/index.js';
import { parseTrackingPlanText } from '../src/internal.js';
import { SECRET, send, serveReceiver, type ServedReceiver } from '../../core/test/helpers/receiver-server.js';

let srv: ServedReceiver | undefined;
afterEach(async () => {
  await srv?.receiver.drain();
  await srv?.close();
  srv = undefined;
});

/** A TRACK rule whose event has the given property schemas. */
const track = (key: string, properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'TRACK',
  key,
  version: 1,
  jsonSchema: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { properties: { type: 'object', properties, ...extra } },
  },
});

const catastrophic = [track('Signed Up', { code: { type: 'string', pattern: '^(a+)+$' } })];
const signedUp = (code: string) => fixture('track', { event: 'Signed Up', properties: { code } });

/** The CPU time `fn` takes, in milliseconds (the machine's load does not count, unlike wall time). */
function cpuMs(fn: () => void): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** The error `fn` throws, which must be a TrackingPlanError. */
function planError(fn: () => unknown): TrackingPlanError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TrackingPlanError);
    return error as TrackingPlanError;
  }
  throw new Error('expected a TrackingPlanError');
}

describe('patterns run in linear time', () => {
  it('a receiver answers a value made for ^(a+)+$ at once, and another route is not held', async () => {
    const seen: (readonly PlanViolation[])[] = [];
    srv = await serveReceiver({
      secret: SECRET,
      trackingPlan: compileTrackingPlan(catastrophic),
      on: { track: (_msg, ctx) => void seen.push(ctx.violations) },
    });
    // 31 × a + "!" took 6 s on JavaScript's engine; 10,000 never finished.
    const short = await send(srv.url, signedUp(`${'a'.repeat(31)}!`));
    expect(short.status).toBe(200);
    expect(short.ms).toBeLessThan(4_000); // the receiver's deadline
    const [hostile, other] = await Promise.all([
      send(srv.url, signedUp(`${'a'.repeat(10_000)}!`)),
      send(srv.url, fixture('identify', { traits: { email: 'a@example.com' } })),
    ]);
    expect([hostile.status, other.status]).toEqual([200, 200]);
    expect(Math.max(hostile.ms, other.ms)).toBeLessThan(4_000);
    expect(seen[0]).toEqual([
      {
        path: 'properties.code',
        message: 'must match pattern "^(a+)+$"',
        keyword: 'pattern',
        rule: 'TRACK "Signed Up" v1',
      },
    ]);
  });

  it('checks a 10 KB value against ^(a+)+$ in well under 50 ms, and still matches what it should', () => {
    const plan = compileTrackingPlan(catastrophic);
    expect(plan.check(signedUp('aaa')).violations).toEqual([]); // compiled, warmed
    const value = `${'a'.repeat(10 * 1024)}!`;
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      times.push(cpuMs(() => expect(plan.check(signedUp(value)).violations).toHaveLength(1)));
    }
    expect(times.sort((a, b) => a - b)[2]).toBeLessThan(50);
    expect(plan.check(signedUp('a'.repeat(10 * 1024))).violations).toEqual([]);
  });

  it('refuses at start a pattern RE2 cannot run, naming the rule, the path and the construct', () => {
    const cases: [string, string][] = [
      ['^(?!admin)', 'negative look-ahead (?!…) at character 2'],
      ['(?<=@)example\\.com$', 'look-behind (?<=…) at character 1'],
      ['^(\\w)\\1$', 'back-reference \\1 at character 6'],
      ['^(?<c>x)\\k<c>$', 'named back-reference \\k<name>'],
      ['^abc\\Z', 'end-of-text \\Z at character 5'],
      ['^a++$', 'possessive quantifier ++ at character 3'],
      ['^(?>ab)c$', 'atomic group (?>…) at character 2'],
    ];
    for (const [pattern, construct] of cases) {
      const plan = [
        track('Signed Up', { code: { type: 'string' } }),
        track('Order Completed', { id: { type: 'string', pattern } }),
      ];
      const error = planError(() => compileTrackingPlan(plan));
      expect(error.path).toBe('rules[1].jsonSchema.properties.properties.properties.id.pattern');
      expect(error.message).toContain('rules[1] (TRACK "Order Completed" v1)');
      expect(error.message).toContain(construct);
      expect(error.message).toContain('RE2');
      expect(() =>
        createReceiver({ secret: SECRET, trackingPlan: compileTrackingPlan(plan), on: { track: () => {} } }),
      ).toThrow(error.message);
    }
    // Inside a class, ( and ? are characters; a property named "pattern" is not the keyword.
    expect(() =>
      compileTrackingPlan([
        track('Signed Up', { code: { type: 'string', pattern: '^[(?=]+$' }, pattern: { type: 'string' } }),
      ]),
    ).not.toThrow();
  });

  it('runs ECMAScript syntax JSON Schema patterns use (\\u escapes, \\d, classes) on RE2', () => {
    const plan = compileTrackingPlan([
      track('Signed Up', {
        name: { type: 'string', pattern: '^\\u00e9+$' },
        sku: { type: 'string', pattern: '^[A-Z]{3}-\\d{2,4}$' },
      }),
    ]);
    const check = (name: string, sku: string) =>
      plan.check(fixture('track', { event: 'Signed Up', properties: { name, sku } })).violations.map((v) => v.path);
    expect(check('éé', 'ABC-12')).toEqual([]);
    expect(check('e', 'ABC-1')).toEqual(['properties.name', 'properties.sku']);
  });
});

describe('plans of real size start at once; absurd ones are refused at start', () => {
  it('a plan of 2,000 rules with 200-value enums is ready in at most 1 s, each rule compiled when first needed', () => {
    const rules = Array.from({ length: 2_000 }, (_, i) =>
      track(`Event ${i}`, {
        plan: { type: 'string', enum: Array.from({ length: 200 }, (_, j) => `plan-${i}-${j}`) },
        sku: { type: 'string', pattern: '^[A-Z]{3}-\\d+$' },
        total: { type: 'number', minimum: 0 },
      }),
    );
    const text = JSON.stringify({ rules });
    let plan: CompiledTrackingPlan | undefined;
    expect(cpuMs(() => (plan = compileTrackingPlan(parseTrackingPlanText(text))))).toBeLessThanOrEqual(1_000);
    let result: PlanCheckResult | undefined;
    const message = fixture('track', { event: 'Event 1999', properties: { plan: 'x', total: -1 } });
    expect(cpuMs(() => (result = plan!.check(message)))).toBeLessThan(200);
    expect(result!.violations.map((v) => v.path)).toEqual(['properties.plan', 'properties.total']);
  });

  it('refuses 10,000 levels of nesting with the rule and the limit named (no RangeError)', () => {
    const deep: Record<string, unknown> = { type: 'object' };
    let node = deep;
    for (let i = 0; i < 10_000; i++) {
      const child: Record<string, unknown> = { type: 'object' };
      node.properties = { x: child };
      node = child;
    }
    const plan = [track('Fine', {}), { type: 'TRACK', key: 'Deep', version: 3, jsonSchema: deep }];
    const error = planError(() => compileTrackingPlan(plan));
    expect(error.path).toBe('rules[1].jsonSchema');
    expect(error.message).toMatch(
      /^rules\[1\] \(TRACK "Deep" v3\): jsonSchema nests deeper than 64 levels \(limits\.maxSchemaDepth\)/,
    );
    expect(() => createReceiver({ secret: SECRET, trackingPlan: compileTrackingPlan(plan) })).toThrow(
      TrackingPlanError,
    );
    expect(() => compileTrackingPlan(plan, { limits: { maxSchemaDepth: 30_000 } })).not.toThrow(TrackingPlanError);
  });

  it('refuses 100,000 rules, a 1,000,000-value enum and a 20 MB plan at once, naming the limit', () => {
    const many = Array.from({ length: 100_000 }, (_, i) => track(`E${i}`, {}));
    expect(
      cpuMs(() =>
        expect(planError(() => compileTrackingPlan(many)).message).toContain(
          'The tracking plan has 100000 rules, over the limit of 5000 (limits.maxRules)',
        ),
      ),
    ).toBeLessThan(1_000);

    const huge = [track('Signed Up', { plan: { enum: Array.from({ length: 1_000_000 }, (_, i) => i) } })];
    let enumError: TrackingPlanError | undefined;
    const raised = { limits: { maxRuleBytes: 64 * 1024 * 1024 } };
    expect(cpuMs(() => (enumError = planError(() => compileTrackingPlan(huge, raised))))).toBeLessThan(5_000);
    expect(enumError!.path).toBe('rules[0].jsonSchema.properties.properties.properties.plan.enum');
    expect(enumError!.message).toContain('rules[0] (TRACK "Signed Up" v1)');
    expect(enumError!.message).toContain('enum has 1000000 values, over the limit of 2000 (limits.maxEnumValues)');
    // Without the raised byte limit, the rule's size is what is refused first.
    expect(planError(() => compileTrackingPlan(huge)).message).toContain('(limits.maxRuleBytes)');

    const text = JSON.stringify({ rules: [track('Padded', { note: { description: 'x'.repeat(20 * 1024 * 1024) } })] });
    expect(planError(() => parseTrackingPlanText(text)).message).toMatch(
      /^The tracking plan is \d+ bytes, over the limit of 16777216 \(limits\.maxPlanBytes\)/,
    );
  });

  it('takes __proto__ as a property name like any other, and refuses unknown limits', () => {
    const plan = compileTrackingPlan(
      JSON.parse(
        '[{"type":"TRACK","key":"Proto","jsonSchema":{"properties":{"properties":{"properties":{"__proto__":{"type":"number"}},"required":["__proto__"]}}}}]',
      ),
    );
    const message = JSON.parse('{"type":"track","event":"Proto","properties":{"__proto__":"x"}}') as unknown;
    expect(plan.check(message).violations.map((v) => `${v.path} ${v.keyword}`)).toEqual(['properties.__proto__ type']);
    expect(() => compileTrackingPlan([], { limits: { maxRulez: 1 } as never })).toThrow(
      /limits\.maxRulez is not a tracking-plan limit/,
    );
  });

  it('refuses at start a plan whose patterns cost seconds to compile, naming the rule and maxPatternWeight', () => {
    // 3,000 patterns of 18 characters with {1,1000}: RE2 expands each into a thousand classes (7 s at start).
    const costly = (count: number, offset = 0) =>
      Object.fromEntries(
        Array.from({ length: count }, (_, i) => [
          `p${i}`,
          { type: 'string', pattern: `^\\p{L}{1,1000}${i + offset}$` },
        ]),
      );
    const plan = [track('Signed Up', {}), track('Order Completed', costly(3_000))];
    let error: TrackingPlanError | undefined;
    expect(cpuMs(() => (error = planError(() => compileTrackingPlan(plan))))).toBeLessThan(1_000);
    expect(error!.path).toMatch(/^rules\[1\]\.jsonSchema\.properties\.properties\.properties\.p\d+\.pattern$/);
    expect(error!.message).toContain('rules[1] (TRACK "Order Completed" v1)');
    expect(error!.message).toContain('over the limit of 1000000 (limits.maxPatternWeight)');
    expect(error!.message).toContain('compileTrackingPlan(plan, { limits })');
    expect(() =>
      createReceiver({ secret: SECRET, trackingPlan: compileTrackingPlan(plan), on: { track: () => {} } }),
    ).toThrow(error!.message);
    // The most a plan under the limit holds (55 × 18,000) compiles at start, then at first use, in well under 1 s each.
    let fits: CompiledTrackingPlan | undefined;
    expect(cpuMs(() => (fits = compileTrackingPlan([track('Signed Up', costly(55, 100))])))).toBeLessThan(1_000);
    const message = fixture('track', { event: 'Signed Up', properties: { p0: 'élan100', p1: '1' } });
    expect(
      cpuMs(() => expect(fits!.check(message).violations.map((v) => v.path)).toEqual(['properties.p1'])),
    ).toBeLessThan(1_000);
    // A pattern repeated across rules weighs once.
    const shared = Array.from({ length: 200 }, (_, i) => track(`E${i}`, costly(1)));
    expect(() => compileTrackingPlan(shared)).not.toThrow();
  });

  it('refuses a $ref that points nowhere or outside the rule, at start', () => {
    const dangling = [track('Signed Up', { a: { $ref: '#/definitions/missing' } })];
    const error = planError(() => compileTrackingPlan(dangling));
    expect(error.path).toBe('rules[0].jsonSchema.properties.properties.properties.a.$ref');
    expect(error.message).toContain('points at no schema');
    const remote = [track('Signed Up', { a: { $ref: 'https://example.com/schema.json' } })];
    expect(planError(() => compileTrackingPlan(remote)).message).toContain('is not local');
  });
});
