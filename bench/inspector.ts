// The inspector's list with 100,000 deliveries in the log (90% track, 10% identify, all delivered to a
// local receiver): pages of 100 through its HTTP API, against the same-run baseline of the intake's
// plain JSON view (`GET /_hookgate/deliveries?limit=100`, newest first, no masking of URLs, no summary).
// Also measured, to decide between pagination and sending everything to a virtual list: the size and
// time of every row's summary at once.
//
//   node --import tsx bench/inspector.ts [--records 100000]
//
// Bar: a first page of the inspector's list keeps at least 0.5 of the baseline's rate.

import http from 'node:http';
import { parseArgs } from 'node:util';
import { createEmulator } from '@hookgate/emulator';
import { fmt, median, printReport, startServer, type BenchReport } from './lib.js';

function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: keepAlive }, (res) => {
        let n = 0;
        res.on('data', (c: Buffer) => (n += c.length));
        res.on('end', () => (res.statusCode === 200 ? resolve(n) : reject(new Error(`${url}: ${res.statusCode}`))));
      })
      .on('error', reject);
  });
}
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });

async function timeMs(url: string, times = 15): Promise<{ ms: number; bytes: number }> {
  let bytes = 0;
  await get(url);
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    bytes = await get(url);
    samples.push(performance.now() - t);
  }
  return { ms: median(samples), bytes };
}

export default async function inspectorBench(): Promise<BenchReport> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { records: { type: 'string' } },
    strict: false,
    allowPositionals: true,
  });
  const records = Number(values.records ?? 100_000);
  let peakRss = 0;
  const sample = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  const receiver = await startServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  const emulator = createEmulator({
    sources: [
      {
        writeKey: 'wk_bench',
        name: 'bench',
        webhooks: {
          enabled: true,
          endpoints: [{ url: `${receiver.url}/hook?token=t0k3n` }],
          sharedSecret: 'bench-secret',
        },
      },
    ],
    maxRecords: records,
  });
  const t0 = performance.now();
  for (let i = 0; i < records; i++) {
    if (i % 10 === 0) emulator.identify({ userId: `user_${i}`, traits: { plan: 'pro' } });
    else emulator.track({ userId: `user_${i}`, event: `Order ${i % 50}`, properties: { total: i } });
    if (i % 5000 === 4999) await emulator.drain();
  }
  await emulator.drain();
  const fillMs = performance.now() - t0;
  const intake = await emulator.listen();
  const mid = Math.floor(records / 2);
  const u = (p: string) => `${intake.url}${p}`;
  const baseline = await timeMs(u('/_hookgate/deliveries?limit=100'));
  const first = await timeMs(u('/_hookgate/ui/api/deliveries?limit=100'));
  const deep = await timeMs(u(`/_hookgate/ui/api/deliveries?limit=100&before=${mid}`));
  const identify = await timeMs(u('/_hookgate/ui/api/deliveries?limit=100&type=identify'));
  const failed = await timeMs(u('/_hookgate/ui/api/deliveries?limit=100&state=failed'), 5);
  const search = await timeMs(u(`/_hookgate/ui/api/deliveries?limit=100&q=user_${mid + 1}`), 5);
  const detail = await timeMs(u(`/_hookgate/ui/api/deliveries/dlv_${mid}`));
  // Everything at once, as a virtual list fed with every row would need: 500 pages of 200 rows, summed.
  const t1 = performance.now();
  let allBytes = 0;
  let next: number | null = null;
  do {
    const page = await new Promise<{ next: number | null; bytes: number }>((resolve, reject) => {
      http
        .get(
          u(`/_hookgate/ui/api/deliveries?limit=500${next ? `&before=${next}` : ''}`),
          { agent: keepAlive },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              const body = Buffer.concat(chunks);
              resolve({ next: (JSON.parse(body.toString()) as { next: number | null }).next, bytes: body.length });
            });
          },
        )
        .on('error', reject);
    });
    allBytes += page.bytes;
    next = page.next;
  } while (next !== null);
  const allMs = performance.now() - t1;
  await intake.close();
  await emulator.close();
  await receiver.close();
  keepAlive.destroy();
  clearInterval(sample);
  const row = (label: string, r: { ms: number; bytes: number }) => ({
    request: label,
    'median ms': fmt(r.ms, 2),
    KB: fmt(r.bytes / 1024, 1),
  });
  return {
    title: `inspector list, ${fmt(records)} deliveries in the log`,
    rows: [
      row('baseline: GET /_hookgate/deliveries?limit=100', baseline),
      row('inspector: first page (100 rows)', first),
      row('inspector: page in the middle (cursor)', deep),
      row('inspector: type=identify (10% match)', identify),
      row('inspector: state=failed (none match: full scan)', failed),
      row('inspector: search one user id (full scan)', search),
      row('inspector: one delivery detail', detail),
      {
        request: `every row at once (${fmt(records)} summaries, pages of 500)`,
        'median ms': fmt(allMs, 0),
        KB: fmt(allBytes / 1024, 0),
      },
    ],
    ratios: { 'first page rate / baseline rate': baseline.ms / first.ms },
    bars: { 'first page rate / baseline rate': 0.5 },
    notes: [
      `filling the log: ${fmt(fillMs, 0)} ms; peak RSS ${fmt(peakRss / 1024 / 1024, 0)} MB (bench process, log included)`,
    ],
  };
}

if (import.meta.url === `file://${process.argv[1]}`) printReport(await inspectorBench());
