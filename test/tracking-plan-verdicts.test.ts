// One verdict everywhere: a corpus of draft-07 cases (test/fixtures/tracking-plans/verdicts), each a
// schema, a value and the verdict the spec gives (valid, and where each violation is), checked side by
// side in the four places a plan runs, each a process of its own on the built packages (dist/; run
// `pnpm build` first): the Node build (rules compiled by Ajv), the runtime-neutral build (the
// @cfworker/json-schema interpreter), a @hookgate/bullmq worker on a real redis-server (a real job per
// case, enqueued by a receiver) and the module the real `hookgate types` CLI writes (validators
// precompiled by Ajv). Every place must give the spec's verdict, and all four the same words.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '@hookgate/core';
import type * as CoreApi from '@hookgate/core';
import { startRedisServer, type RunningRedis } from './helpers/redis-server.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const PROCESS = path.join(ROOT, 'test/helpers/plan-verdicts-process.mjs');
const CORPUS = path.join(ROOT, 'test/fixtures/tracking-plans/verdicts/draft-07-cases.json');

interface Case {
  why: string;
  schema: unknown;
  /** The value of `properties.v`, as the body writes it. */
  json: string;
  valid: boolean;
  /** Where each violation is, relative to `properties.v` (`''`: v itself). */
  paths: string[];
  /** `refused`: the neutral build refuses the schema at start (patternProperties). */
  neutral?: 'refused';
}
interface Violation {
  path: string;
  keyword: string;
  message: string;
}

// Parsed by JSON.parse, so a `__proto__` key stays an own property.
const corpus = JSON.parse(readFileSync(CORPUS, 'utf8')) as { cases: Case[]; definitions: Record<string, unknown> };
const cases = corpus.cases;
const PLACES = ['node', 'neutral', 'worker', 'types'] as const;

const plan = cases.map((c, i) => ({
  type: 'TRACK',
  key: `case-${i}`,
  version: 1,
  jsonSchema: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { properties: { type: 'object', properties: { v: c.schema } } },
    definitions: corpus.definitions,
  },
}));
// The value is spliced in as text: `1.0` and `"\ud83d\ude00"` reach the receiver as written.
const bodies = cases.map((c, i) =>
  JSON.stringify(
    fixture('track', { messageId: `case-${i}`, event: `case-${i}`, properties: { v: '\u0000value' } }),
  ).replace('"\\u0000value"', c.json),
);
const expectedPaths = (c: Case) => c.paths.map((p) => (p === '' ? 'properties.v' : `properties.v.${p}`)).sort();

const dir = path.join(ROOT, 'node_modules/.cache', `hookgate-verdicts-${process.pid}`);
let redis: RunningRedis | undefined;
const verdicts = {} as Record<(typeof PLACES)[number], (Violation[] | null)[]>;

async function place(where: string, ...more: string[]): Promise<(Violation[] | null)[]> {
  const planFile = path.join(dir, where === 'neutral' ? 'plan-neutral.json' : 'plan.json');
  const { stdout } = await run(process.execPath, [PROCESS, where, planFile, path.join(dir, 'bodies.json'), ...more], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: Error & { stdout?: string; stderr?: string }) => {
    throw new Error(`${where}: ${error.message}\n${error.stderr ?? ''}`);
  });
  const line = /^VERDICTS=(.*)$/m.exec(stdout)?.[1];
  if (line === undefined) throw new Error(`${where} printed no verdicts:\n${stdout}`);
  return JSON.parse(line) as (Violation[] | null)[];
}

beforeAll(async () => {
  for (const built of [
    'packages/core/dist/node/index.js',
    'packages/bullmq/dist/index.js',
    'packages/emulator/bin/hookgate.js',
  ]) {
    if (!existsSync(path.join(ROOT, built))) throw new Error(`${built} is missing: run pnpm build first`);
  }
  // Under node_modules, so the module `hookgate types` writes finds @hookgate/core as an application would.
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'plan.json'), JSON.stringify(plan));
  // Its cases' events are then unplanned there: no violations (checked below: the whole plan is refused).
  const runsInterpreted = plan.filter((_, i) => cases[i]!.neutral !== 'refused');
  writeFileSync(path.join(dir, 'plan-neutral.json'), JSON.stringify(runsInterpreted));
  writeFileSync(path.join(dir, 'bodies.json'), JSON.stringify(bodies));
  redis = await startRedisServer();
  const types = async () => {
    const ts = path.join(dir, 'plan.ts');
    await run(process.execPath, [
      path.join(ROOT, 'packages/emulator/bin/hookgate.js'),
      'types',
      '--plan',
      path.join(dir, 'plan.json'),
      '--out',
      ts,
    ]);
    // The module is TypeScript: its types stripped (esbuild), nothing else changed.
    const { transform } = await import('esbuild');
    const { code } = await transform(readFileSync(ts, 'utf8'), { loader: 'ts', format: 'esm' });
    writeFileSync(path.join(dir, 'plan.mjs'), code);
    return place(`module:${path.join(dir, 'plan.mjs')}`);
  };
  [verdicts.node, verdicts.neutral, verdicts.worker, verdicts.types] = await Promise.all([
    place('node'),
    place('neutral'),
    place('worker', String(redis.port)),
    types(),
  ]);
}, 180_000);

afterAll(async () => {
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('the corpus covers every draft-07 keyword, __proto__, constructor and Object.prototype names', () => {
  const text = JSON.stringify(cases.map((c) => c.schema)) + cases.map((c) => c.json).join();
  const keywords = [
    'type',
    'enum',
    'const',
    'multipleOf',
    'maximum',
    'exclusiveMaximum',
    'minimum',
    'exclusiveMinimum',
    'maxLength',
    'minLength',
    'pattern',
    'items',
    'additionalItems',
    'maxItems',
    'minItems',
    'uniqueItems',
    'contains',
    'maxProperties',
    'minProperties',
    'required',
    'properties',
    'patternProperties',
    'additionalProperties',
    'dependencies',
    'propertyNames',
    'if',
    'then',
    'else',
    'allOf',
    'anyOf',
    'oneOf',
    'not',
    'format',
    '$ref',
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
  ];
  expect(keywords.filter((k) => !text.includes(`"${k}"`))).toEqual([]);
  expect(cases.filter((c) => c.valid === c.paths.length > 0)).toEqual([]);
});

it('the neutral build refuses at start, naming the rule, the schemas it cannot run (patternProperties)', async () => {
  const refused = cases.flatMap((c, i) => (c.neutral === 'refused' ? [i] : []));
  expect(refused.length).toBeGreaterThan(0);
  const neutral = (await import(path.join(ROOT, 'packages/core/dist/index.js'))) as typeof CoreApi;
  for (const i of refused) {
    expect(() => neutral.compileTrackingPlan([plan[i]])).toThrow(
      new RegExp(
        `^rules\\[0\\] \\(TRACK "case-${i}" v1\\): .*patternProperties run only where the plan is compiled by Ajv`,
      ),
    );
  }
});

describe.each(cases.map((c, i) => [i, c] as const))('case %i', (i, c) => {
  it(`${c.why}: ${JSON.stringify(c.schema)} on ${c.json} is ${c.valid ? 'valid' : 'invalid'}`, () => {
    const places = PLACES.filter((where) => where !== 'neutral' || c.neutral !== 'refused');
    const found = Object.fromEntries(
      places.map((where) => {
        const violations = verdicts[where][i];
        return [where, violations == null ? 'not handled' : [...new Set(violations.map((v) => v.path))].sort()];
      }),
    );
    const expected = expectedPaths(c);
    expect(found).toEqual(Object.fromEntries(places.map((where) => [where, expected])));
    // The same words everywhere, not only the same paths.
    const words = places.map((where) =>
      (verdicts[where][i] ?? []).map((v) => `${v.path} [${v.keyword}] ${v.message}`).sort(),
    );
    for (const other of words.slice(1)) expect(other).toEqual(words[0]);
  });
});
