// Core signatures: `verify` against the bare node:crypto work it wraps, measured in the same run.
//   raw:          verify({ rawBody })    vs createHmac + timingSafeEqual over the same bytes
//   re-serialized: verify({ parsedBody }) vs JSON.stringify + createHmac + timingSafeEqual
// at 1 KB and 32 KB (the call limit). Bars: each ratio ≥ 0.8.
//   forged:       receiver.handle() of a forged request (well-formed signature, wrong value, raw bytes
//                 present) vs a hand-written createHmac + timingSafeEqual check, at 1 KB, 32 KB, 1 MB.
//                 Each receiver call is awaited (batches of 100), so the whole refusal is measured; rates
//                 are per second of CPU time. Bar (issue 28): a refusal costs at most 1.5× the check in CPU,
//                 i.e. hookgate ops ÷ hand-written ops ≥ 0.67.
// Run: node --import tsx bench/run.ts core   (the built @hookgate/core: pnpm build first; run.ts sees to it
// that @hookgate/* resolve to dist/. Run directly, tsx follows the root tsconfig's paths to src/.)
import { createHmac, timingSafeEqual } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createReceiver, fixtures, verify, verifyAsync } from '@hookgate/core';
import { compareOps, compareOpsAsync, fmt, printReport, type BenchReport } from './lib.js';

const SECRET = 'whsec_bench_5f0c2d';

/** A realistic track message (an order with line items) grown to about `bytes` bytes of JSON. */
function messageOf(bytes: number): Record<string, unknown> {
  const products: Array<Record<string, unknown>> = [];
  const msg = {
    ...fixtures.track,
    messageId: 'api-2Vx1Wq8ZpQm7Lr4Tn9Yk3Hs6Jd0',
    context: { ip: '203.0.113.9', library: { name: 'analytics-go', version: '2.0.0' }, userAgent: 'Mozilla/5.0' },
    properties: { orderId: 'ord_77', revenue: 42.5, currency: 'EUR', products },
  };
  for (let i = 0; JSON.stringify(msg).length < bytes; i++) {
    products.push({
      sku: `SKU-${1000 + i}`,
      name: `Product ${i} — café`,
      price: 9.99 + i,
      quantity: (i % 3) + 1,
      category: 'Books',
    });
  }
  return msg;
}

interface Case {
  label: string;
  size: string;
  form: 'raw' | 'stringify';
  fn: () => unknown;
  baseline: () => unknown;
}

function cases(bytes: number, size: string): Case[] {
  const message = messageOf(bytes);
  const text = JSON.stringify(message);
  const raw = Buffer.from(text, 'utf8'); // what a Node server reads off the socket
  const signature = createHmac('sha1', SECRET).update(raw).digest('hex');
  // Both sides decode the header's hex and compare in constant time: the baseline is the least a
  // correct verifier must do.
  const bareRaw = () => timingSafeEqual(createHmac('sha1', SECRET).update(raw).digest(), Buffer.from(signature, 'hex'));
  const bareReserialized = () =>
    timingSafeEqual(createHmac('sha1', SECRET).update(JSON.stringify(message)).digest(), Buffer.from(signature, 'hex'));

  const checks: Array<[string, unknown, unknown]> = [
    ['raw', verify({ signature, secret: SECRET, rawBody: raw }), { ok: true, form: 'raw', secretIndex: 0 }],
    [
      'stringify',
      verify({ signature, secret: SECRET, parsedBody: message }),
      { ok: true, form: 'stringify', secretIndex: 0 },
    ],
  ];
  for (const [name, got, want] of checks) {
    if (JSON.stringify(got) !== JSON.stringify(want))
      throw new Error(`bench setup: ${name} verify gave ${JSON.stringify(got)}`);
  }
  if (!bareRaw() || !bareReserialized()) throw new Error('bench setup: baseline does not verify');

  return [
    {
      label: `raw ${size}`,
      size,
      form: 'raw',
      fn: () => verify({ signature, secret: SECRET, rawBody: raw }),
      baseline: bareRaw,
    },
    {
      label: `re-serialized ${size}`,
      size,
      form: 'stringify',
      fn: () => verify({ signature, secret: SECRET, parsedBody: message }),
      baseline: bareReserialized,
    },
  ];
}

/** Awaited Web Crypto throughput, for the README's figure (no bar: it is the Workers path). */
async function webCryptoRate(ms = 400): Promise<number> {
  const text = JSON.stringify(messageOf(1024));
  const signature = createHmac('sha1', SECRET).update(text).digest('hex');
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    await verifyAsync({ signature, secret: SECRET, rawBody: text });
    n++;
  }
  return (n * 1000) / (performance.now() - start);
}

/**
 * A forged request through the whole receiver (status table, verification, answer) against the
 * least a hand-written check does: decode the header, HMAC the raw bytes, compare in constant time.
 */
function forgedCase(bytes: number, size: string): { label: string; fn: () => unknown; baseline: () => unknown } {
  const raw = Buffer.from(JSON.stringify(messageOf(bytes)), 'utf8');
  const forged = createHmac('sha1', 'not-the-secret').update(raw).digest('hex');
  const headers = { 'content-type': 'application/json', 'content-length': String(raw.length), 'x-signature': forged };
  const receiver = createReceiver({ secret: SECRET, maxBodyBytes: 2 * 1024 * 1024, onMessage: () => {} });
  const input = { method: 'POST', headers, rawBody: raw };
  let answered = 0;
  const fn = () => receiver.handle(input);
  const baseline = () => {
    const given = Buffer.from(headers['x-signature'], 'hex');
    const ok = given.length === 20 && timingSafeEqual(createHmac('sha1', SECRET).update(raw).digest(), given);
    return ok ? 200 : 401;
  };
  if (baseline() !== 401) throw new Error('bench setup: the hand-written check accepted a forgery');
  void fn().then((r) => {
    answered = r.status;
    if (answered !== 401) throw new Error(`bench setup: hookgate answered ${answered} to a forgery`);
  });
  return { label: `forged ${size}`, fn, baseline };
}

export default async function coreBench(): Promise<BenchReport> {
  const all = [...cases(1024, '1 KB'), ...cases(32 * 1024, '32 KB')];
  const rows: BenchReport['rows'] = [];
  const ratios: Record<string, number> = {};
  const bars: Record<string, number> = {};
  for (const c of all) {
    const r = compareOps(c.fn, c.baseline, { rounds: 25, msPerRound: 80 });
    const name = `${c.label}: verify / ${c.form === 'raw' ? 'createHmac + timingSafeEqual' : 'JSON.stringify + createHmac + timingSafeEqual'}`;
    rows.push({
      case: c.label,
      'verify ops/s': fmt(r.ops),
      'baseline ops/s': fmt(r.baselineOps),
      ratio: fmt(r.ratio, 2),
    });
    ratios[name] = r.ratio;
    bars[name] = 0.8;
  }
  for (const [bytes, size] of [
    [1024, '1 KB'],
    [32 * 1024, '32 KB'],
    [1024 * 1024 - 4096, '1 MB'],
  ] as const) {
    const c = forgedCase(bytes, size);
    await new Promise((resolve) => setImmediate(resolve)); // let the setup check's promise settle
    const r = await compareOpsAsync(c.fn, c.baseline, {
      rounds: bytes > 100_000 ? 9 : 25,
      msPerRound: bytes > 100_000 ? 200 : 80,
    });
    const name = `${c.label}: receiver.handle (raw bytes) ops / hand-written createHmac + timingSafeEqual ops`;
    rows.push({
      case: `${c.label} (CPU per request: hookgate ÷ hand-written = ${fmt(1 / r.ratio, 2)})`,
      'verify ops/s': fmt(r.ops),
      'baseline ops/s': fmt(r.baselineOps),
      ratio: fmt(r.ratio, 2),
    });
    ratios[name] = r.ratio;
    bars[name] = 0.67; // a refusal at most 1.5× the check's CPU
  }
  const web = await webCryptoRate();
  rows.push({
    case: 'raw 1 KB, verifyAsync (Web Crypto, awaited)',
    'verify ops/s': fmt(web),
    'baseline ops/s': '—',
    ratio: '—',
  });
  return {
    title: 'Core signatures: verify vs bare node:crypto (same run, interleaved rounds, medians)',
    rows,
    ratios,
    bars,
    notes: [
      `Node ${process.version}, ${process.arch}; 25 interleaved rounds × 80 ms per side per case; body = a track message with line items`,
    ],
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const ok = printReport(await coreBench());
  process.exitCode = ok ? 0 : 1;
}
