// A check that cannot outrun its budget (issue 44): each hostile plan and message of plan-attacks.ts runs
// against both builds of core and plans — Node (rules compiled by Ajv) and runtime-neutral (the interpreter Workers
// run) — each in a child process of its own with a heap limit and a kill timeout, so that the crash, the
// out-of-memory or the minutes the same attack cost before cannot take the suite down. Each outcome is a
// refusal at start naming the rule, the path and the limit, or a check that ends at once: bounded by the
// cost bound (one `maxCheckCost` violation), capped (`maxViolations`), or run in linear time. The 250 ms
// figure is bench/plan-bounds.ts's; the margins here are generous (2 s where it took seconds to minutes).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundlePlans, type PlansBundle } from './helpers/bundle.js';
import { PLAN_ATTACKS } from './helpers/plan-attacks.js';

const CHILD = fileURLToPath(new URL('./helpers/plan-attack-child.ts', import.meta.url));
const KILL_MS = 30_000;
/** The check's wall time must stay under this, where the same attack took seconds to minutes before. */
const MARGIN_MS = 2_000;

interface Outcome {
  refused?: { kind: string; message: string; path: string };
  ms?: number;
  count?: number;
  textBytes?: number;
  keywords?: string[];
  first?: { path: string; message: string; keyword: string }[];
  last?: { path: string; message: string; keyword: string };
  crashed?: string;
}

/** Runs one attack against one bundle in a child process: 512 MB of heap, killed after 30 s. */
function attack(bundle: string, name: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--max-old-space-size=512', '--import', 'tsx', CHILD, bundle, name], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), KILL_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code === 0 && line.startsWith('{')) resolve(JSON.parse(line) as Outcome);
      else resolve({ crashed: `exit ${code} ${signal ?? ''}: ${err.slice(-300)}` });
    });
  });
}

type Build = 'node' | 'neutral';
type Expect = (outcome: Outcome, build: Build) => void;

/** Not checked: one violation saying the check could cost more than the budget (or go too deep). */
const notChecked =
  (why = 'limits.maxCheckCost'): Expect =>
  (outcome) => {
    expect(outcome.crashed).toBeUndefined();
    expect(outcome.keywords).toEqual(['maxCheckCost']);
    expect(outcome.count).toBe(1);
    expect(outcome.first![0]!.path).toBe('(root)');
    expect(outcome.first![0]!.message).toContain(why);
    expect(outcome.ms).toBeLessThan(MARGIN_MS);
  };

/** Refused at start, naming the rule, the path and the limit or reason. */
const refused =
  (reason: string, path: string): Expect =>
  (outcome) => {
    expect(outcome.crashed).toBeUndefined();
    expect(outcome.refused?.kind).toBe('TrackingPlanError');
    expect(outcome.refused!.message).toContain('rules[0] (TRACK "Attack" v1)');
    expect(outcome.refused!.message).toContain(reason);
    expect(outcome.refused!.path).toMatch(new RegExp(`^rules\\[0\\]\\.jsonSchema${path}`));
  };

/** Checked at once, with exactly these violations (keyword at path). */
const checked =
  (...violations: string[]): Expect =>
  (outcome) => {
    expect(outcome.crashed).toBeUndefined();
    expect(outcome.refused).toBeUndefined();
    expect(outcome.ms).toBeLessThan(MARGIN_MS);
    expect((outcome.first ?? []).map((v) => `${v.keyword} ${v.path}`)).toEqual(violations);
  };

/** Per attack: what each build must answer (one Expect for both, or one per build), and what it did before. */
const EXPECTED: Record<string, Expect | Record<Build, Expect>> = {
  // 4–11 s, 16,183 violations and 436 MB of text; neutral: out of memory.
  'items enum of 2,000 values, 32 KB array of 0': notChecked(),
  // Out of memory with a 2 GB heap.
  'items enum of 2,000 values, 1 MB array of 0': notChecked(),
  // 6–17 s, 1.3 M violations; neutral: Maximum call stack size exceeded.
  'items anyOf of 200 patterns, 32 KB array': notChecked(),
  // 17 s.
  'pattern of weight 17,000 on a 1 MB string': notChecked(),
  // 25 s (Node); the neutral build refuses patternProperties at start, as before.
  'patternProperties of weight 17,000 on a 1 MB key': {
    node: notChecked(),
    neutral: refused('patternProperties run only where', '.patternProperties'),
  },
  // ajv-formats' url is quadratic (2.2 s at 32 KB), the interpreter's exponential.
  'format url on 100 KB': checked('format properties.site'),
  'format url on 40 letters and a "!"': checked('format properties.site'),
  // 31 s (Ajv); the interpreter compares every pair. Past the budget in one pass too (about 2 µs a value).
  'uniqueItems on 1 MB of numbers': notChecked(),
  // 0.45 s (Ajv), 2 s (interpreter).
  'uniqueItems on 32 KB of objects': { node: checked(), neutral: notChecked() },
  'uniqueItems on 1 MB of objects': notChecked(),
  // Ajv said unique (its map of scalars is a plain object).
  'uniqueItems on ["__proto__", "__proto__"]': checked('uniqueItems properties.list'),
  // 1 s per message; 40 levels: over 60 s.
  '$refs fanning out two ways, 28 levels': refused(
    '(limits.maxRuleKeywords)',
    '\\.properties\\.properties\\.properties\\.x\\.\\$ref',
  ),
  '$refs fanning out two ways, 40 levels': refused(
    '(limits.maxRuleKeywords)',
    '\\.properties\\.properties\\.properties\\.x\\.\\$ref',
  ),
  // 5 s to compile at its first message.
  'a 500 KB rule': refused('(limits.maxRuleKeywords)', '\\.properties\\.properties'),
  // RangeError: handle() rejected.
  'recursive $ref, data nested 10,000 deep': notChecked('deeper than 256 levels'),
  '$id inside a subschema': refused('$id inside a subschema', '\\.properties\\.properties\\.properties\\.x\\.\\$id$'),
  'contains anyOf of 200 patterns, 32 KB array': notChecked(),
  'propertyNames pattern of weight 17,000 on a 1 MB key': notChecked(),
  'additionalProperties enum of 2,000 values, 32 KB of keys': notChecked(),
  'allOf chain 25 deep on each item of a 1 MB array': notChecked(),
  'if/then/else on each key of a 1 MB object': notChecked(),
  'dependencies on a 1 MB object': notChecked(),
  'minLength on 1 MB of astral characters': checked('maxLength properties.text'),
  'const of a 400 KB object': checked('const properties.blob'),
  // 5,000 violations, each listed.
  'items type on 5,000 numbers (5,000 violations)': (outcome) => {
    expect(outcome.ms).toBeLessThan(MARGIN_MS);
    expect(outcome.count).toBe(101);
    expect(outcome.last).toEqual({
      path: '(root)',
      message: '4900 more violations, not listed (limits.maxViolations is 100)',
      keyword: 'maxViolations',
      rule: 'TRACK "Attack" v1',
    });
  },
  // The message listed all 2,000 values (28 KB).
  'enum of 2,000 values, one value wrong': (outcome) => {
    expect(outcome.count).toBe(1);
    const { message } = outcome.first![0]!;
    expect(message).toMatch(
      /^must be equal to one of the allowed values: "value-0", "value-1", .*, … \(2000 values\)$/,
    );
    expect(message.length).toBeLessThan(300);
  },
};

let bundles: Record<Build, PlansBundle>;
beforeAll(async () => {
  bundles = { node: await bundlePlans('node'), neutral: await bundlePlans('neutral') };
}, 120_000);
afterAll(() => {
  bundles?.node.remove();
  bundles?.neutral.remove();
});

describe('a plan check cannot outrun its budget, in either build', () => {
  it('every attack has its expectation', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(PLAN_ATTACKS.map((a) => a.name).sort());
  });

  for (const { name } of PLAN_ATTACKS) {
    it(name, { timeout: 2 * KILL_MS + 10_000 }, async () => {
      const expected = EXPECTED[name]!;
      const [node, neutral] = await Promise.all([attack(bundles.node.file, name), attack(bundles.neutral.file, name)]);
      for (const [build, outcome] of [
        ['node', node],
        ['neutral', neutral],
      ] as const) {
        const check = typeof expected === 'function' ? expected : expected[build];
        try {
          check(outcome, build);
        } catch (error) {
          throw new Error(`${build} build: ${(error as Error).message}\n${JSON.stringify(outcome).slice(0, 600)}`);
        }
      }
    });
  }
});
