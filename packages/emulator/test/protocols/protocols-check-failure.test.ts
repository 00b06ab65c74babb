// Issue 44: a tracking-plan check that throws (a `$id` inside a subschema leaves its `$ref` unresolved, and
// the validator throws at the first message) is a violation naming it where the emulator applies a plan,
// as at the receiver: the schema controls treat it like any violation (block filters the record naming
// why; forward delivers it listed in context.protocols). On main the delivery pipeline threw.
import { afterEach, describe, expect, it } from 'vitest';
import { startPlanPair, type PlanPair } from '../helpers/plan-pair.js';

const plan = [
  {
    type: 'TRACK',
    key: 'Scoped',
    version: 1,
    jsonSchema: {
      definitions: { d: { type: 'string' } },
      properties: { properties: { $id: 'http://example.com/p', properties: { a: { $ref: '#/definitions/d' } } } },
    },
  },
];

let pair: PlanPair | undefined;
afterEach(async () => {
  await pair?.close();
  pair = undefined;
});

describe('a plan check that throws, in the emulator', () => {
  it('violations: block filters the record, naming the failed check', async () => {
    pair = await startPlanPair(plan, { violations: 'block' });
    const record = await pair.call('track', { event: 'Scoped', properties: { a: 'x' } });
    expect(record.state).toBe('filtered');
    expect(record.reason).toMatch(
      /^blocked by the tracking plan: the plan at \(root\): the tracking plan check failed \(.+\); the message was not checked \(schemaControls\.violations: block\)$/s,
    );
    expect(pair.seen).toEqual([]);
  });

  it('forward: delivers it, the failure listed in context.protocols and in the receiver’s ctx.violations', async () => {
    pair = await startPlanPair(plan);
    const record = await pair.call('track', { event: 'Scoped', properties: { a: 'x' } });
    expect(record.state).toBe('delivered');
    expect(pair.seen).toHaveLength(1);
    const { message, ctx } = pair.seen[0]!;
    const protocols = (message as { context?: { protocols?: { violations?: { type: string; field: string }[] } } })
      .context?.protocols;
    expect(protocols?.violations?.map((v) => [v.type, v.field])).toEqual([['Plan Check Failed', '(root)']]);
    expect(ctx.violations.map((v) => [v.keyword, v.path])).toEqual([['planCheckFailed', '(root)']]);
  });
});
