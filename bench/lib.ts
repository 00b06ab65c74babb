// Shared helpers for the benchmarks: every figure is a ratio against a baseline measured in the same run.

/** One benchmark's outcome, printed by bench/run.ts and recorded in bench/README.md. */
export interface BenchReport {
  /** Short title, e.g. "verify (raw, 1 KB) vs createHmac + timingSafeEqual". */
  title: string;
  /** Table rows: a label and its measured figures. */
  rows: Array<Record<string, string | number>>;
  /** The ratios that the bars are about, e.g. { 'raw verify / baseline': 0.93 }. */
  ratios: Record<string, number>;
  /** The bar each ratio must meet, e.g. { 'raw verify / baseline': 0.8 }; a ratio below its bar fails. */
  bars: Record<string, number>;
  /** Free-form notes (machine, settings). */
  notes?: string[];
}

/** Median of numbers. */
export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/**
 * Measures operations per second of `fn` against `baseline`, interleaved in rounds so that
 * machine noise hits both alike; returns the median rate of each and the median of per-round ratios.
 */
export function compareOps(
  fn: () => unknown,
  baseline: () => unknown,
  { rounds = 7, msPerRound = 300 }: { rounds?: number; msPerRound?: number } = {},
): { ops: number; baselineOps: number; ratio: number } {
  const rate = (f: () => unknown) => {
    let n = 0;
    const start = performance.now();
    let now = start;
    while (now - start < msPerRound) {
      for (let i = 0; i < 100; i++) f();
      n += 100;
      now = performance.now();
    }
    return (n * 1000) / (now - start);
  };
  rate(fn);
  rate(baseline); // warm up both
  const a: number[] = [];
  const b: number[] = [];
  const r: number[] = [];
  for (let i = 0; i < rounds; i++) {
    // Alternate which goes first, so that drift in machine load favours neither.
    let x: number;
    let y: number;
    if (i % 2 === 0) {
      x = rate(fn);
      y = rate(baseline);
    } else {
      y = rate(baseline);
      x = rate(fn);
    }
    a.push(x);
    b.push(y);
    r.push(x / y);
  }
  return { ops: median(a), baselineOps: median(b), ratio: median(r) };
}

/**
 * `compareOps` for work that finishes in a promise (a receiver's `handle`): each call is awaited, in
 * batches of 100 run together, so that what runs after the first `await` is measured too (a synchronous
 * loop would measure only the part before it, and leave every promise pending until the round ends).
 * Rates are operations per second of this process's CPU time, steadier than wall time on a busy machine.
 */
export async function compareOpsAsync(
  fn: () => unknown,
  baseline: () => unknown,
  { rounds = 7, msPerRound = 300 }: { rounds?: number; msPerRound?: number } = {},
): Promise<{ ops: number; baselineOps: number; ratio: number }> {
  const rate = async (f: () => unknown) => {
    let n = 0;
    const start = performance.now();
    const cpu = process.cpuUsage();
    while (performance.now() - start < msPerRound) {
      const batch: unknown[] = [];
      for (let i = 0; i < 100; i++) batch.push(f());
      await Promise.all(batch);
      n += 100;
    }
    const used = process.cpuUsage(cpu);
    return (n * 1e6) / (used.user + used.system);
  };
  await rate(fn);
  await rate(baseline); // warm up both
  const a: number[] = [];
  const b: number[] = [];
  const r: number[] = [];
  for (let i = 0; i < rounds; i++) {
    // Alternate which goes first, so that drift in machine load favours neither.
    const first = i % 2 === 0 ? fn : baseline;
    const x0 = await rate(first);
    const y0 = await rate(first === fn ? baseline : fn);
    const [x, y] = first === fn ? [x0, y0] : [y0, x0];
    a.push(x);
    b.push(y);
    r.push(x / y);
  }
  return { ops: median(a), baselineOps: median(b), ratio: median(r) };
}

export { startHttpServer as startServer, readAll } from '../test/helpers/servers.js';

/** Formats a number for a table: thousands separators, `digits` decimals. */
export function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

/** Prints a report as a readable table with its ratios against their bars. */
export function printReport(report: BenchReport): boolean {
  console.log(`\n## ${report.title}`);
  if (report.rows.length > 0) console.table(report.rows);
  let pass = true;
  for (const [name, value] of Object.entries(report.ratios)) {
    const bar = report.bars[name];
    const ok = bar === undefined || value >= bar;
    pass &&= ok;
    console.log(
      `  ${ok ? 'PASS' : 'FAIL'}  ${name} = ${value.toFixed(2)}${bar === undefined ? '' : ` (bar ≥ ${bar})`}`,
    );
  }
  for (const note of report.notes ?? []) console.log(`  note: ${note}`);
  return pass;
}
