// Tracking plans (Segment Protocols): reading Public API and Terraform exports, structural errors that
// name the rule and path, version choice, and checking messages as Protocols matches them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture } from '@hookgate/core';
import { compileTrackingPlan, TrackingPlanError } from '../src/index.js';
import { readTrackingPlan } from '../src/internal.js';

const fixtures = new URL('../../../test/fixtures/tracking-plans/', import.meta.url);
const read = (name: string): unknown => JSON.parse(readFileSync(new URL(name, fixtures), 'utf8'));
const publicApi = read('public-api-rules.json');

const order = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  fixture('track', { event: 'Order Completed', properties, ...extra });

describe('reading a plan', () => {
  it('reads the Public API response, its rules object, a bare array, and Terraform json_schema text', () => {
    const rules = readTrackingPlan(publicApi);
    expect(rules.map((r) => `${r.type}:${r.key ?? ''}:${r.version}`)).toEqual([
      'COMMON::1',
      'TRACK:Order Completed:2',
      'TRACK:Order Completed:1',
      'TRACK:Signed Up:1',
      'TRACK:Page Viewed:1',
      'IDENTIFY::1',
      'GROUP::1',
    ]);
    const inner = (publicApi as { data: { rules: unknown[] } }).data;
    expect(readTrackingPlan(inner)).toEqual(rules);
    expect(readTrackingPlan(inner.rules)).toEqual(rules);
    const terraform = readTrackingPlan(read('terraform-rules.json'));
    expect(terraform[0]?.jsonSchema).toMatchObject({ properties: { properties: { required: ['plan'] } } });
  });

  it.each([
    [{ rules: [{ type: 'TRAK', key: 'Signed Up', jsonSchema: {} }] }, 'rules[0].type', /one of TRACK, IDENTIFY/],
    [{ rules: [{ type: 'TRACK', version: 1, jsonSchema: {} }] }, 'rules[0].key', /event name/],
    [{ rules: [{ type: 'TRACK', key: 'A', version: 0, jsonSchema: {} }] }, 'rules[0].version', /whole number/],
    [{ rules: [{ type: 'IDENTIFY', key: null }] }, 'rules[0].jsonSchema', /got none/],
    [{ rules: [{ type: 'TRACK', key: 'A', json_schema: '{oops' }] }, 'rules[0].json_schema', /not JSON/],
    [{ plan: [] }, '', /keys plan/],
  ])('refuses a malformed plan, naming the path (%#)', (file, path, message) => {
    let error: unknown;
    try {
      compileTrackingPlan(file);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TrackingPlanError);
    expect((error as TrackingPlanError).path).toBe(path);
    expect((error as Error).message).toMatch(message);
  });

  it('refuses a rule whose jsonSchema is not a draft-07 schema, naming the rule and the path inside it', () => {
    const bad = {
      rules: [
        { type: 'TRACK', key: 'Signed Up', version: 1, jsonSchema: { type: 'object' } },
        {
          type: 'TRACK',
          key: 'Order Completed',
          version: 3,
          jsonSchema: { properties: { properties: { type: 'objekt' } } },
        },
      ],
    };
    expect(() => compileTrackingPlan(bad)).toThrow(
      expect.objectContaining({
        path: 'rules[1].jsonSchema.properties.properties.type',
        message: expect.stringContaining('rules[1] (TRACK "Order Completed" v3)'),
      }),
    );
  });

  it('refuses the same version of a rule twice', () => {
    const rule = { type: 'TRACK', key: 'A', version: 1, jsonSchema: {} };
    expect(() => readTrackingPlan([rule, rule])).toThrow(/rules\[1\].*same rule and version as rules\[0\]/);
  });
});

describe('checking messages', () => {
  const plan = compileTrackingPlan(publicApi);

  it('checks a track call against the oldest version by default, as Segment does, with every violation named by path', () => {
    const result = plan.check(order({ order_id: 7, currency: 'GBP', products: [{ price: 3 }] }));
    expect(result.planned).toBe(true);
    expect(result.rule).toEqual({ type: 'TRACK', key: 'Order Completed', version: 1 });
    expect(result.violations.map((v) => `${v.path}: ${v.message}`).sort()).toEqual([
      'properties.currency: must be equal to one of the allowed values: "EUR", "USD"',
      'properties.order_id: must be string (got integer)',
      'properties.products.0.product_id: is required',
      'properties.total: is required',
    ]);
    expect(result.violations[0]?.rule).toBe('TRACK "Order Completed" v1');
  });

  it('a valid message has no violations; an unplanned event is not planned', () => {
    expect(plan.check(order({ order_id: 'o1', total: 12.5 }))).toEqual({
      planned: true,
      rule: { type: 'TRACK', key: 'Order Completed', version: 1 },
      violations: [],
    });
    expect(plan.check(fixture('track', { event: 'Order Complete' }))).toEqual({ planned: false, violations: [] });
    expect(plan.suggest('Order Complete')).toBe('Order Completed');
  });

  it('context.protocols.event_version picks a version; a version the plan lacks falls back', () => {
    const v2 = plan.check(order({ order_id: 'o1' }, { context: { protocols: { event_version: 2 } } }));
    expect(v2).toMatchObject({ rule: { version: 2 }, violations: [] });
    const v9 = plan.check(order({ order_id: 'o1' }, { context: { protocols: { event_version: 9 } } }));
    expect(v9.rule?.version).toBe(1);
  });

  it('versions: highest, or per event; an unknown event in versions is refused with a did-you-mean', () => {
    expect(compileTrackingPlan(publicApi, { versions: 'highest' }).check(order({ order_id: 'o' })).rule?.version).toBe(
      2,
    );
    const picked = compileTrackingPlan(publicApi, { versions: { 'Order Completed': 2 } });
    expect(picked.check(order({ order_id: 'o' })).rule?.version).toBe(2);
    expect(() => compileTrackingPlan(publicApi, { versions: { 'Order Complete': 1 } })).toThrow(
      /did you mean "Order Completed"/,
    );
    expect(() => compileTrackingPlan(publicApi, { versions: { 'Order Completed': 5 } })).toThrow(/has no version 5/);
  });

  it('checks page calls as "Page Viewed", identify and group against their rules, COMMON against all', () => {
    const page = plan.check(fixture('page', { properties: { title: 'Pricing' } }));
    expect(page).toMatchObject({ planned: true, rule: { key: 'Page Viewed' } });
    expect(page.violations.map((v) => v.path)).toEqual(['properties.path']);
    const identify = plan.check(fixture('identify', { traits: { email: 'not-an-email', logins: 1.5 } }));
    expect(identify.violations.map((v) => `${v.path} ${v.keyword}`).sort()).toEqual([
      'traits.email format',
      'traits.logins type',
    ]);
    expect(plan.check(fixture('group', { traits: { employees: 3 } })).violations.map((v) => v.path)).toEqual([
      'traits.name',
    ]);
    const common = plan.check(fixture('alias', { context: { library: { name: 7 } } }));
    expect(common).toMatchObject({ planned: false, violations: [{ path: 'context.library.name', rule: 'COMMON v1' }] });
    expect(plan.check(fixture('screen'))).toEqual({ planned: false, violations: [] });
  });

  it('checks page and screen calls as "Page Viewed" and "Screen Viewed", or the plan\'s PAGE and SCREEN rule, never by name', () => {
    const properties = (required: string) => ({
      type: 'object',
      properties: { properties: { type: 'object', required: [required] } },
    });
    const viewed = compileTrackingPlan([
      { type: 'TRACK', key: 'Screen Viewed', version: 1, jsonSchema: properties('viewed') },
    ]);
    const home = viewed.check(fixture('screen', { name: 'Home', properties: {} }));
    expect(home).toMatchObject({ planned: true, rule: { type: 'TRACK', key: 'Screen Viewed' } });
    expect(home.violations.map((v) => v.path)).toEqual(['properties.viewed']);
    const rules = compileTrackingPlan([
      { type: 'TRACK', key: 'Screen Viewed', version: 1, jsonSchema: properties('viewed') },
      { type: 'SCREEN', key: null, version: 1, jsonSchema: properties('x') },
      { type: 'PAGE', key: null, version: 1, jsonSchema: properties('y') },
    ]);
    expect(rules.check(fixture('screen', { name: 'Home', properties: {} })).violations.map((v) => v.path)).toEqual([
      'properties.x',
    ]);
    // The Webhooks page message has no name: the same rule with and without it.
    for (const page of [fixture('page', { properties: {} }), fixture('page', { name: 'Pricing', properties: {} })]) {
      expect(rules.check(page)).toMatchObject({ planned: true, rule: { type: 'PAGE', key: null } });
    }
    for (const type of ['PAGE', 'SCREEN']) {
      expect(() =>
        compileTrackingPlan([{ type, key: 'Checkout', version: 2, jsonSchema: properties('step') }]),
      ).toThrow(
        new RegExp(
          `^rules\\[0\\] \\(${type} "Checkout" v2\\): a ${type} rule applies to every ${type.toLowerCase()} call`,
        ),
      );
    }
  });

  it('lists the planned property and trait names of a message', () => {
    expect([...(plan.plannedFields(order({}))?.names ?? [])]).toEqual(['order_id', 'total', 'currency', 'products']);
    expect(plan.plannedFields(fixture('identify'))?.field).toBe('traits');
    expect(plan.plannedFields(fixture('track', { event: 'Nope' }))).toBeUndefined();
  });
});
