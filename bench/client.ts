// Client throughput: hookgate's client against @segment/analytics-node, shipping the same track calls
// to the same local intake stand-in, each client in its own child process so that peak RSS is its own.
// The children (bench/client-child.mjs) run on plain node and load the BUILT @hookgate/client
// (packages/client/dist): run `pnpm build` first; the run stops if a child loaded anything else.
//
//   node --import tsx bench/client.ts [--calls 100000] [--flush-at 100] [--runs 3]
//
// Bar: hookgate's client at least 1.5× the calls/s of analytics-node, with no higher peak RSS.

import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchReport } from './lib.js';

/** One measured client (median of the runs). */
export interface BenchRow {
  client: string;
  calls: number;
  /** Calls per second, from the first call to the last batch answered. */
  callsPerSec: number;
  /** Peak resident set size of the client's process, in MB. */
  peakRssMb: number;
  /** Resident set size once the client has flushed and closed (no forced GC), in MB. */
  rssAfterCloseMb: number;
  /** Messages the intake stand-in received (must equal `calls`). */
  received: number;
}

/** What `benchClient` returns. */
export interface BenchResult {
  name: string;
  rows: BenchRow[];
  /** hookgate ÷ analytics-node: calls/s (bar ≥ 1.5) and peak RSS (bar ≤ 1). */
  ratios: { throughput: number; peakRss: number };
  pass: boolean;
}

export interface BenchClientOptions {
  /** Track calls per client per run. Default 100,000. */
  calls?: number;
  /** Messages per batch for both clients (analytics-node caps a batch at 480 KB). Default 100. */
  flushAt?: number;
  /** Runs per client; medians are reported. Default 3. */
  runs?: number;
  /** Print the table. Default true. */
  print?: boolean;
}

type ClientName = 'hookgate' | 'analytics-node';
const CLIENTS: ClientName[] = ['hookgate', 'analytics-node'];
const CHILD = fileURLToPath(new URL('./client-child.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface ChildResult {
  calls: number;
  ms: number;
  maxRssKb: number;
  rssAfterCloseKb: number;
  /** The file the child imported the client from. */
  loaded: string;
}

/** The intake stand-in: keep-alive node:http, reads and JSON.parses each batch, answers 200. */
async function startIntake(): Promise<{ url: string; received: () => number; close: () => Promise<void> }> {
  let received = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { batch: unknown[] };
      received += body.batch.length;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"success":true}');
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function runChild(client: ClientName, url: string, calls: number, flushAt: number): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, client, url, String(calls), String(flushAt)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, DEBUG: '' },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`${client} child exited with ${code}: ${out}`));
      const result = JSON.parse(line) as ChildResult;
      if (client === 'hookgate' && !result.loaded.includes(`packages/client/dist/`)) {
        return reject(new Error(`the hookgate child loaded ${result.loaded}, not the build: run pnpm build first`));
      }
      resolve(result);
    });
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

/**
 * Ships `calls` track calls with each client (alternating, `runs` times) to a local intake stand-in
 * and reports median calls/s and peak RSS per client and their ratios.
 *
 * @example
 * const result = await benchClient({ runs: 5 });
 * if (!result.pass) process.exitCode = 1;
 */
export async function benchClient(options: BenchClientOptions = {}): Promise<BenchResult> {
  const { calls = 100_000, flushAt = 100, runs = 3, print = true } = options;
  const samples: Record<ClientName, Array<ChildResult & { received: number }>> = { hookgate: [], 'analytics-node': [] };
  for (let run = 0; run < runs; run++) {
    for (const client of run % 2 ? [...CLIENTS].reverse() : CLIENTS) {
      const intake = await startIntake();
      try {
        const result = await runChild(client, intake.url, calls, flushAt);
        samples[client].push({ ...result, received: intake.received() });
      } finally {
        await intake.close();
      }
    }
  }
  const rows: BenchRow[] = CLIENTS.map((client) => ({
    client: client === 'hookgate' ? '@hookgate/client' : '@segment/analytics-node',
    calls,
    callsPerSec: Math.round(median(samples[client].map((s) => (s.calls / s.ms) * 1000))),
    peakRssMb: Math.round(median(samples[client].map((s) => s.maxRssKb / 1024)) * 10) / 10,
    rssAfterCloseMb: Math.round(median(samples[client].map((s) => s.rssAfterCloseKb / 1024)) * 10) / 10,
    received: Math.min(...samples[client].map((s) => s.received)),
  }));
  const [ours, theirs] = rows as [BenchRow, BenchRow];
  const ratios = {
    throughput: Math.round((ours.callsPerSec / theirs.callsPerSec) * 100) / 100,
    peakRss: Math.round((ours.peakRssMb / theirs.peakRssMb) * 100) / 100,
  };
  const pass = ratios.throughput >= 1.5 && ratios.peakRss <= 1 && rows.every((r) => r.received === calls);
  const result: BenchResult = {
    name: `client: ${calls.toLocaleString('en')} track calls, flushAt ${flushAt}`,
    rows,
    ratios,
    pass,
  };
  if (print) printTable(result, runs);
  return result;
}

/**
 * The same benchmark in bench/run.ts's report form (every ratio "higher is better" against its bar).
 *
 * @example
 * // pnpm bench client
 */
export default async function clientBench(): Promise<BenchReport> {
  const result = await benchClient({ print: false });
  const [ours, theirs] = result.rows as [BenchRow, BenchRow];
  return {
    title: result.name,
    rows: result.rows.map((r) => ({
      client: r.client,
      'calls/s': r.callsPerSec,
      'peak RSS (MB)': r.peakRssMb,
      'RSS after close, no GC (MB)': r.rssAfterCloseMb,
      received: r.received,
    })),
    ratios: {
      'hookgate / analytics-node calls/s': result.ratios.throughput,
      'analytics-node / hookgate peak RSS': Math.round((theirs.peakRssMb / ours.peakRssMb) * 100) / 100,
    },
    bars: { 'hookgate / analytics-node calls/s': 1.5, 'analytics-node / hookgate peak RSS': 1 },
    notes: [
      "Each client runs in its own child process on plain node (bench/client-child.mjs, no tsx), @hookgate/client from packages/client/dist; peak RSS is that process's process.resourceUsage().maxRSS; the intake stand-in runs in the parent.",
      'Both clients get the same calls, 1,000 per event-loop turn, and the same flushAt; the time runs from the first call until close() / closeAndFlush() resolved.',
      `Medians of 3 alternating runs; every run delivered ${ours.calls.toLocaleString('en')} messages to the stand-in: ${result.rows.every((r) => r.received === r.calls) ? 'yes' : 'NO'}.`,
    ],
  };
}

function printTable(result: BenchResult, runs: number): void {
  const header = ['client', 'calls/s', 'peak RSS (MB)', 'RSS after close, no GC (MB)', 'received'];
  const lines = result.rows.map((r) => [
    r.client,
    r.callsPerSec.toLocaleString('en'),
    r.peakRssMb.toFixed(1),
    r.rssAfterCloseMb.toFixed(1),
    r.received.toLocaleString('en'),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] as string).length)));
  const fmt = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(`\n${result.name} (median of ${runs} run${runs > 1 ? 's' : ''} each)`);
  console.log(fmt(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines) console.log(fmt(l));
  console.log(
    `throughput ×${result.ratios.throughput} (bar ≥ 1.5), peak RSS ×${result.ratios.peakRss} (bar ≤ 1): ${result.pass ? 'PASS' : 'FAIL'}\n`,
  );
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const result = await benchClient({
    calls: arg('--calls', 100_000),
    flushAt: arg('--flush-at', 100),
    runs: arg('--runs', 3),
  });
  if (!result.pass) process.exitCode = 1;
}
