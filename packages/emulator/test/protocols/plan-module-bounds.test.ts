// The module `hookgate types` writes runs the same bounded keywords as a receiver's plan: `uniqueItems` in
// one pass (["__proto__", "__proto__"] repeats an item: Ajv's own said unique) and `format: url` on RE2
// (ajv-formats' url took seconds on `http://` + 100,000 × `:`).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileTrackingPlan } from '@hookgate/plans';
import { afterAll, expect, it } from 'vitest';
import { planModule } from '../../src/protocols/plan-module.js';

const dir = mkdtempSync(join(tmpdir(), 'hookgate-plan-module-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('runs uniqueItems in one pass and format url on RE2', async () => {
  const properties = {
    list: { type: 'array', items: { type: 'string' }, uniqueItems: true },
    site: { type: 'string', format: 'url' },
  };
  const text = await planModule([
    { type: 'TRACK', key: 'A', jsonSchema: { properties: { properties: { properties } } } },
  ]);
  expect(text).toContain('hookgateDuplicateItems');
  const file = join(dir, 'plan.ts');
  writeFileSync(file, text);
  const { trackingPlan } = (await import(file)) as { trackingPlan: unknown };
  const plan = compileTrackingPlan(trackingPlan);
  const message = { type: 'track', event: 'A', properties: { list: ['__proto__', '__proto__'], site: 'http://a.com' } };
  expect(plan.check(message).violations.map((v) => `${v.keyword} ${v.path}`)).toEqual(['uniqueItems properties.list']);
  const start = process.cpuUsage();
  const hostile = { type: 'track', event: 'A', properties: { site: `http://${':'.repeat(100_000)}` } };
  expect(plan.check(hostile).violations.map((v) => v.keyword)).toEqual(['format']);
  const used = process.cpuUsage(start);
  expect((used.user + used.system) / 1000).toBeLessThan(500); // seconds on JavaScript's engine
});
