// One attack of plan-attacks.ts against one build of core, in a process of its own (a crash or an out-
// of-memory must not take the test down): argv = the bundle's path, the attack's name, and optionally the
// limits as JSON. Prints one JSON line: the plan refused at start, or the check's time and violations.
import { pathToFileURL } from 'node:url';
import type * as CoreApi from '../../src/index.js';
import type { CompiledTrackingPlan } from '@hookgate/core';
import { PLAN_ATTACKS } from './plan-attacks.js';

const [bundle, name, limits] = process.argv.slice(2);
const attack = PLAN_ATTACKS.find((a) => a.name === name);
if (bundle === undefined || attack === undefined) throw new Error(`no attack named ${String(name)}`);
const core = (await import(pathToFileURL(bundle).href)) as typeof CoreApi;
let plan: CompiledTrackingPlan;
try {
  plan = core.compileTrackingPlan(
    attack.plan,
    limits ? { limits: JSON.parse(limits) as CoreApi.TrackingPlanLimits } : {},
  );
} catch (error) {
  const { name: kind, message, path } = error as CoreApi.TrackingPlanError;
  console.log(JSON.stringify({ refused: { kind, message, path } }));
  process.exit(0);
}
const body = attack.body?.() ?? JSON.stringify(attack.message());
const bytes = Buffer.byteLength(body);
if (bytes > 1024 * 1024) throw new Error(`the message is ${bytes} bytes, over the body limit`);
// As a receiver does: the body is parsed from its bytes.
const parsed: unknown = JSON.parse(body);
const start = performance.now();
const cpu = process.cpuUsage();
const result = plan.check(parsed);
const used = process.cpuUsage(cpu);
const ms = performance.now() - start;
const { violations } = result;
console.log(
  JSON.stringify({
    bytes,
    ms: Math.round(ms),
    cpuMs: Math.round((used.user + used.system) / 1000),
    count: violations.length,
    textBytes: JSON.stringify(violations).length,
    keywords: [...new Set(violations.map((v) => v.keyword))],
    first: violations.slice(0, 2),
    last: violations.at(-1),
  }),
);
