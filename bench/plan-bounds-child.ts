// plan-bounds.ts's child: one build of @hookgate/plans (argv[2]); prints the edge of each sized attack as JSON.
import { pathToFileURL } from 'node:url';
import type * as CoreApi from '../packages/plans/src/index.js';
import type { CompiledTrackingPlan } from '../packages/core/src/index.js';
import { SIZED_ATTACKS } from '../packages/plans/test/helpers/plan-attacks.js';
import { median } from './lib.js';

const core = (await import(pathToFileURL(process.argv[2]!).href)) as typeof CoreApi;
const MAX_BODY = 1024 * 1024;

const edges = SIZED_ATTACKS.map((attack) => {
  let plan: CompiledTrackingPlan;
  try {
    plan = core.compileTrackingPlan(attack.plan);
  } catch (error) {
    return {
      name: attack.name,
      n: 0,
      bytes: 0,
      firstMs: 0,
      ms: 0,
      outcome: `refused: ${(error as Error).message.slice(0, 80)}`,
    };
  }
  const body = (n: number) => JSON.stringify(attack.message(n));
  const checked = (n: number) => {
    const text = body(n);
    if (text.length > MAX_BODY) return false;
    return !plan.check(JSON.parse(text)).violations.some((v) => v.keyword === 'maxCheckCost');
  };
  // Doubling, then halving, to the largest n still checked (within the body limit).
  let low = 2;
  const firstStart = performance.now();
  const compiledOk = checked(low);
  const firstMs = performance.now() - firstStart;
  if (!compiledOk) return { name: attack.name, n: 0, bytes: 0, firstMs, ms: 0, outcome: 'never checked' };
  let high = low * 2;
  while (checked(high) && body(high).length <= MAX_BODY) {
    low = high;
    high *= 2;
  }
  while (high - low > Math.max(2, low / 50)) {
    const mid = Math.round((low + high) / 4) * 2;
    if (checked(mid)) low = mid;
    else high = mid;
  }
  const message = body(low);
  const times = Array.from({ length: 5 }, () => {
    const parsed: unknown = JSON.parse(message);
    const start = performance.now();
    plan.check(parsed);
    return performance.now() - start;
  });
  return { name: attack.name, n: low, bytes: message.length, firstMs, ms: median(times), outcome: 'checked' };
});
console.log(JSON.stringify(edges));
