// A plan of real size starts at once: CPU time of reading and checking a 2,000-rule plan with 200-value
// enums and a pattern per rule (`parseTrackingPlanText` + `compileTrackingPlan`: the loader's limits,
// the draft-07 meta-schema, the pattern and $ref checks; rules compile when their first message comes),
// against JSON.parse of the same text in the same run, and the first check of one rule (its compile).
// Bar: ready within the 1 s budget (budget ÷ start ≥ 1). CPU time from process.cpuUsage, not wall time.
import { fixture } from '@hookgate/core';
import { compileTrackingPlan } from '@hookgate/plans';
import { parseTrackingPlanText } from '@hookgate/plans/internal';
import { median, type BenchReport } from './lib.js';

function planText(): string {
  const rules = Array.from({ length: 2_000 }, (_, i) => ({
    type: 'TRACK',
    key: `Event ${i}`,
    version: 1,
    jsonSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        properties: {
          type: 'object',
          properties: {
            plan: { type: 'string', enum: Array.from({ length: 200 }, (_, j) => `plan-${i}-${j}`) },
            sku: { type: 'string', pattern: `^[A-Z]{3}-\\d+-${i}$` },
            total: { type: 'number', minimum: 0 },
          },
        },
      },
    },
  }));
  return JSON.stringify({ rules });
}

function cpuMs(fn: () => void): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

export default async function bench(): Promise<BenchReport> {
  const text = planText();
  const parse: number[] = [];
  const start: number[] = [];
  const first: number[] = [];
  for (let round = 0; round < 7; round++) {
    parse.push(cpuMs(() => JSON.parse(text)));
    let plan: ReturnType<typeof compileTrackingPlan> | undefined;
    start.push(cpuMs(() => (plan = compileTrackingPlan(parseTrackingPlanText(text)))));
    const message = fixture('track', { event: `Event ${round}`, properties: { plan: 'x' } });
    first.push(cpuMs(() => plan!.check(message)));
    await new Promise((resolve) => setImmediate(resolve));
  }
  const startMs = median(start);
  return {
    title: 'tracking plan start: 2,000 rules × 200-value enums (6.6 MB), CPU ms',
    rows: [
      { step: 'JSON.parse of the plan (baseline)', 'cpu ms': Number(median(parse).toFixed(1)) },
      { step: 'parseTrackingPlanText + compileTrackingPlan', 'cpu ms': Number(startMs.toFixed(1)) },
      { step: 'first check of a rule (its compile)', 'cpu ms': Number(median(first).toFixed(2)) },
    ],
    ratios: {
      'budget 1 s / start': Number((1_000 / startMs).toFixed(2)),
      'start / JSON.parse': Number((startMs / median(parse)).toFixed(1)),
    },
    bars: { 'budget 1 s / start': 1 },
    notes: [`${text.length} bytes; median of 7 rounds`],
  };
}
