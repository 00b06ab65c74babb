// A check that cannot outrun its budget: for each hostile construct (the rows of issue 44 and others),
// the largest message a build still checks (the cost bound, check-cost.ts, lets it run) and how long that
// check takes, against the 250 ms a check may take. Each build in a child process of its own (dist/node:
// rules compiled by Ajv; dist/index.js: the interpreter, what Workers run). The edge is found by doubling
// then halving the message's size `n` until the check says `maxCheckCost`; the figure is the median of
// five checks at the edge (the first, which compiles the rule, separately). Bar: 250 ms ÷ the slowest ≥ 1.
// Run: node --import tsx bench/run.ts plan-bounds
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { fmt, type BenchReport } from './lib.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BUILDS = { node: 'packages/plans/dist/node/index.js', neutral: 'packages/plans/dist/index.js' } as const;

interface Edge {
  name: string;
  n: number;
  bytes: number;
  firstMs: number;
  ms: number;
  outcome: string;
}

function run(build: string): Edge[] {
  const child = spawnSync(
    process.execPath,
    [
      '--max-old-space-size=2048',
      '--import',
      'tsx',
      fileURLToPath(new URL('./plan-bounds-child.ts', import.meta.url)),
      build,
    ],
    { cwd: ROOT, encoding: 'utf8', timeout: 600_000 },
  );
  if (child.status !== 0) throw new Error(`plan-bounds child failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Edge[];
}

export default async function bench(): Promise<BenchReport> {
  const results = Object.fromEntries(Object.entries(BUILDS).map(([name, file]) => [name, run(file)])) as Record<
    keyof typeof BUILDS,
    Edge[]
  >;
  const rows = results.node.map((edge, i) => {
    const neutral = results.neutral[i]!;
    return {
      attack: edge.name,
      'node: n (KB)': `${edge.n} (${Math.round(edge.bytes / 1024)})`,
      'node ms (first)': `${fmt(edge.ms)} (${fmt(edge.firstMs)})`,
      'neutral: n (KB)': `${neutral.n} (${Math.round(neutral.bytes / 1024)})`,
      'neutral ms (first)': `${fmt(neutral.ms)} (${fmt(neutral.firstMs)})`,
    };
  });
  const slowest = Math.max(...Object.values(results).flatMap((edges) => edges.map((e) => Math.max(e.ms, e.firstMs))));
  return {
    title: 'plan check at the edge of its budget (limits.maxCheckCost), per build',
    rows,
    ratios: { '250 ms / slowest check at the edge': 250 / slowest },
    bars: { '250 ms / slowest check at the edge': 1 },
    notes: ['n: the largest size still checked (below: not checked, one maxCheckCost violation); ms: wall time'],
  };
}
