// Changed-number detection on hostile bodies (issue 44): 5,000 numbers parsing changes (2^53 + 1) in one
// array 10,000 levels deep, 50,000 in one flat array, and 5,000 at every other level of 10,000. Each is
// a signed track message through receiver.handle(), with a handler that reads ctx.lossyNumbers (and one
// with bigNumbers: 'string'), against the baseline: the same body with 2^53 (read back exactly, so the
// text is never walked), i.e. what parsing and the first looks cost. Interleaved rounds, medians.
// Ratio: baseline ms / changed ms (1 = detection is free); bar 0.05 (main: under 0.002 deep, 5-13 s).
// Run: node --import tsx bench/run.ts lossy-numbers
import { createReceiver, fixture, sign } from '@hookgate/core';
import { fmt, median, type BenchReport } from './lib.js';

const SECRET = 'whsec_bench_lossy_7c1a';
const LEVELS = 10_000;

function bodies(n: string): Record<string, string> {
  return {
    'deep (5,000 at 10,000 levels)': `{"d":${'['.repeat(LEVELS)}${Array(5_000).fill(n).join(',')}${']'.repeat(LEVELS)}}`,
    'flat (50,000)': `{"f":[${Array(50_000).fill(n).join(',')}]}`,
    'mixed (5,000, every other level)': `{"m":${Array.from({ length: 5_000 }, (_, i) => `{"k.${i}":[1,${n},`).join('')}0${']}'.repeat(5_000)}}`,
  };
}

function inputOf(
  properties: string,
  messageId: string,
): { method: string; headers: Record<string, string>; rawBody: Buffer } {
  const text = JSON.stringify(fixture('track', { event: 'Deep', messageId, properties: { x: 1 } })).replace(
    '{"x":1}',
    properties,
  );
  const headers = { 'content-type': 'application/json', 'x-signature': sign(text, SECRET) };
  return { method: 'POST', headers, rawBody: Buffer.from(text) };
}

async function msOf(handle: () => Promise<{ status: number }>): Promise<number> {
  const start = performance.now();
  const { status } = await handle();
  if (status !== 200) throw new Error(`bench setup: answered ${status}`);
  return performance.now() - start;
}

export default async function bench(): Promise<BenchReport> {
  let paths = 0;
  const modes = {
    'ctx.lossyNumbers': createReceiver({
      secret: SECRET,
      logger: false,
      on: { track: (_m, ctx) => void (paths += ctx.lossyNumbers.length) },
    }),
    "bigNumbers: 'string'": createReceiver({
      secret: SECRET,
      logger: false,
      bigNumbers: 'string',
      on: { track: () => {} },
    }),
  };
  const changed = bodies('9007199254740993');
  const exact = bodies('9007199254740992');
  const rows: BenchReport['rows'] = [];
  const ratios: Record<string, number> = {};
  const bars: Record<string, number> = {};
  for (const [mode, receiver] of Object.entries(modes)) {
    for (const name of Object.keys(changed)) {
      const times: number[] = [];
      const base: number[] = [];
      for (let round = 0; round < 7; round++) {
        // A messageId of its own each time: a resend would be answered `duplicate` without the work.
        const a = inputOf(changed[name]!, `${mode}-${name}-${round}-changed`);
        const b = inputOf(exact[name]!, `${mode}-${name}-${round}-exact`);
        times.push(await msOf(() => receiver.handle(a)));
        base.push(await msOf(() => receiver.handle(b)));
      }
      const ratio = median(base) / median(times);
      rows.push({
        mode,
        body: name,
        'changed ms': fmt(median(times), 1),
        'baseline ms': fmt(median(base), 1),
        ratio: fmt(ratio, 2),
      });
      ratios[`${mode}, ${name}: baseline / changed`] = ratio;
      bars[`${mode}, ${name}: baseline / changed`] = 0.05;
    }
  }
  if (paths === 0) throw new Error('bench setup: no path was read');
  return {
    title: 'changed numbers in hostile bodies through handle(), against the same body read back exactly',
    rows,
    ratios,
    bars,
  };
}
