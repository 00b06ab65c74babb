// bench/README.md is today's figures, not a log (history is in git): it stays under 300 lines, and what
// it says `pnpm bench` runs is what bench/run.ts runs.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(`${root}bench/README.md`, 'utf8');
const runner = readFileSync(`${root}bench/run.ts`, 'utf8');
const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: Record<string, string> };

/** The benchmark names of bench/run.ts's `ALL`, in order. */
const benchmarks = [...(/const ALL = \[([^\]]*)\]/.exec(runner)?.[1] ?? '').matchAll(/'([\w-]+)'/g)].map((m) => m[1]);

describe('bench/README.md', () => {
  it('stays under 300 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  });

  it("lists bench/run.ts's benchmarks, in its order, as what pnpm bench runs", () => {
    expect(benchmarks.length).toBeGreaterThan(5);
    const listed = /default, in this\s+order: ([^)]*)\)/.exec(readme)?.[1] ?? '';
    expect([...listed.matchAll(/`([\w-]+)`/g)].map((m) => m[1])).toEqual(benchmarks);
  });

  it('gives the pnpm bench script as it is', () => {
    expect(readme).toContain(`pnpm bench                     # = ${manifest.scripts['bench']}`);
  });

  it('has a section for each benchmark with the command that reproduces it', () => {
    for (const name of benchmarks) expect(readme, name).toMatch(new RegExp(`(pnpm bench|bench/run\\.ts) ${name}\\b`));
  });
});
