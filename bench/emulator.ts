// The sender emulator's delivery engine, measured two ways:
//
// 1. Throughput: deliveries per second of 1 KB signed track messages from `createEmulator` (real clock)
//    to a keep-alive node:http receiver, against a bare keep-alive node:http `http.request` loop (the
//    emulator's own transport) posting the same messages (serializing and signing each one itself, as a
//    sender does) with the same headers and the same number of requests in flight (and, for reference,
//    the same loop on undici's `Pool.request`). Interleaved rounds in one run; the figure is the median
//    of the per-round ratios. Bar: emulator ÷ node:http loop ≥ 0.75.
// 2. Memory: 100,000 messages pending retry (the receiver answers 503) on a ManualClock, measured in a
//    child process: peak RSS during the run (kernel high-water mark). Bar: peak RSS < 500 MB.
//
// Run: node --import tsx bench/run.ts emulator (the built packages: run.ts makes @hookgate/* resolve to
// dist/). Alone, with settings: node --import tsx bench/emulator.ts [--rounds 15] [--messages 2000]
// [--pending 100000] (then tsx follows the root tsconfig's paths to the TypeScript sources).
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createEmulator } from '@hookgate/emulator';
import { Pool } from 'undici';
import { fmt, median, printReport, type BenchReport } from './lib.js';

const THIS_FILE = fileURLToPath(import.meta.url);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SECRET = 'bench_shared_secret';
const CONCURRENCY = 64; // the emulator's default in-flight requests per endpoint; the bare loop uses the same
const RSS_BUDGET_MB = 500;
const CALLS_PER_TURN = 100;

/**
 * Track call properties that make the delivered body about 1 KB. Every message differs, as real
 * traffic does (ids, SKUs, names, prices, quantities and a free-text note drawn from a generator
 * seeded by `i`), as real traffic does. Self-contained (no outer names): the memory child inlines its source.
 */
function properties(i: number): Record<string, unknown> {
  let seed = (i + 1) * 2654435761;
  const rand = () => {
    seed = (seed ^ (seed >>> 15)) * 2246822519 + 3266489917;
    seed = (seed ^ (seed >>> 13)) >>> 0;
    return seed / 4294967296;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const words = [
    'café',
    'organic',
    'large',
    'blue',
    'linen',
    'shirt',
    'mug',
    'lamp',
    'oak',
    'desk',
    'wool',
    'scarf',
    'green',
    'tea',
    'box',
    'gift',
    'set',
    'mini',
    'pro',
    'kit',
  ];
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(rand() * 16).toString(16)).join('');
  const items = Array.from({ length: 6 }, () => ({
    sku: `SKU-${Math.floor(rand() * 90_000) + 10_000}`,
    name: `${pick(words)} ${pick(words)} — ${pick(words)}`,
    qty: 1 + Math.floor(rand() * 4),
    price: Math.round(rand() * 20_000) / 100,
  }));
  return {
    orderId: `ord_${hex(16)}`,
    revenue: Math.round(items.reduce((sum, it) => sum + it.qty * it.price, 0) * 100) / 100,
    currency: pick(['EUR', 'USD', 'GBP', 'JPY']),
    coupon: rand() < 0.5 ? `SPRING-${Math.floor(rand() * 10_000)}` : null,
    items,
    cartId: hex(24),
    shipping: {
      street: `${Math.floor(rand() * 300) + 1} ${pick(words)} street`,
      city: pick(['Lyon', 'Zürich', 'Porto', 'Gent', 'Oslo']),
      postalCode: hex(5),
    },
    note: Array.from({ length: 36 }, () => pick(words)).join(' ') + ` ref ${hex(32)}`,
  };
}

// ---- the receiver: its own process, so neither sender pays for its CPU ----

async function serveReceiver(): Promise<void> {
  const server = http.createServer((req, res) => {
    req.on('data', () => {});
    req.on('end', () => {
      res.writeHead(req.url === '/fail' ? 503 : 200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
  });
}

function spawnChild(
  args: string[],
  execArgs: string[] = [],
): { child: ReturnType<typeof spawn>; firstLine: Promise<string> } {
  const child = spawn(process.execPath, [...execArgs, '--import', 'tsx', THIS_FILE, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, DEBUG: '' },
  });
  const firstLine = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.on('exit', (code) =>
      reject(new Error(`child ${args.join(' ')} exited with ${code} before answering: ${out}`)),
    );
    child.on('error', reject);
  });
  return { child, firstLine };
}

async function startReceiver(): Promise<{ url: string; stop: () => void }> {
  const { child, firstLine } = spawnChild(['--receiver']);
  const { port } = JSON.parse(await firstLine) as { port: number };
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

// ---- throughput ----

/** This process's CPU time (user + system), in ms: the sender's work, whatever else runs on the machine. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

type TrackCall = { userId: string; event: string; properties: Record<string, unknown> };

/** The calls of one run, made before the clock starts: building them is the caller's work, not the emulator's. */
function makeCalls(messages: number): TrackCall[] {
  return Array.from({ length: messages }, (_, i) => ({
    userId: `user_${i % 1000}`,
    event: 'Order Completed',
    properties: properties(i),
  }));
}

async function emulatorRun(
  url: string,
  messages: number,
): Promise<{ ms: number; cpu: number; bodies: string[]; signatures: string[] }> {
  const emulator = createEmulator({
    concurrency: CONCURRENCY,
    sources: [
      { writeKey: 'wk', webhooks: { enabled: true, endpoints: [{ url: `${url}/hook` }], sharedSecret: SECRET } },
    ],
  });
  const calls = makeCalls(messages);
  const start = performance.now();
  const cpu0 = cpuMs();
  for (let i = 0; i < messages; i++) {
    emulator.track(calls[i] as TrackCall);
    // Calls arrive in bursts, as from an intake: the engine sends while the next burst comes in.
    if (i % CALLS_PER_TURN === CALLS_PER_TURN - 1) await new Promise((r) => setImmediate(r));
  }
  await emulator.drain();
  const ms = performance.now() - start;
  const cpu = cpuMs() - cpu0;
  const records = emulator.deliveries;
  if (records.some((r) => r.state !== 'delivered')) throw new Error('emulator run: not every message was delivered');
  await emulator.close();
  return { ms, cpu, bodies: records.map((r) => r.body), signatures: records.map((r) => r.signature ?? '') };
}

/**
 * The baseline of the bar: a bare `http.request` loop that, like a sender, serializes and signs each
 * message itself (JSON.stringify + HMAC-SHA1 hex), with the emulator's headers and in-flight count, on
 * a connection per request as the emulator's transport (`keepAlive: false`), or, for reference, on
 * kept-alive connections (`keepAlive: true`). It gets the messages the emulator sent (parsed before the
 * clock starts) and checks, after the run, that it sent the same bytes and signatures.
 */
async function bareRun(
  url: string,
  bodies: string[],
  signatures: string[],
  keepAlive: boolean,
): Promise<{ ms: number; cpu: number }> {
  const agent = new http.Agent({ keepAlive });
  const target = new URL(`${url}/hook`);
  const messages = bodies.map((b) => JSON.parse(b) as unknown);
  const sent: string[] = new Array(bodies.length);
  const signed: string[] = new Array(bodies.length);
  const start = performance.now();
  const cpu0 = cpuMs();
  await new Promise<void>((resolve, reject) => {
    let next = 0;
    let done = 0;
    const send = () => {
      const i = next++;
      if (i >= bodies.length) return;
      const body = JSON.stringify(messages[i]);
      const signature = createHmac('sha1', SECRET).update(body).digest('hex');
      sent[i] = body;
      signed[i] = signature;
      const req = http.request(
        {
          hostname: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          agent,
          headers: {
            'User-Agent': 'Segment.io/1.0',
            'Content-Type': 'application/json',
            'Content-Length': String(Buffer.byteLength(body)),
            'Accept-Encoding': 'identity',
            'X-Signature': signature,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (++done === bodies.length) resolve();
            else send();
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    };
    for (let c = 0; c < CONCURRENCY; c++) send();
  });
  const ms = performance.now() - start;
  const cpu = cpuMs() - cpu0;
  agent.destroy();
  for (let i = 0; i < bodies.length; i++)
    if (sent[i] !== bodies[i] || signed[i] !== signatures[i])
      throw new Error(`bare loop: message ${i} differs from the emulator's (bytes or signature)`);
  return { ms, cpu };
}

/**
 * For reference: a bare undici `Pool.request` loop (one pool, `CONCURRENCY` connections, as
 * many requests in flight), serializing and signing each message itself, with the emulator's headers.
 */
async function undiciRun(url: string, bodies: string[], signatures: string[]): Promise<number> {
  const target = new URL(`${url}/hook`);
  const pool = new Pool(target.origin, { connections: CONCURRENCY });
  const messages = bodies.map((b) => JSON.parse(b) as unknown);
  let sameBytes = true;
  const start = performance.now();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < bodies.length; i = next++) {
      const body = JSON.stringify(messages[i]);
      const signature = createHmac('sha1', SECRET).update(body).digest('hex');
      if (body !== bodies[i] || signature !== signatures[i]) sameBytes = false;
      const res = await pool.request({
        path: target.pathname,
        method: 'POST',
        headers: {
          'User-Agent': 'Segment.io/1.0',
          'Content-Type': 'application/json',
          'Accept-Encoding': 'identity',
          'X-Signature': signature,
        },
        body,
      });
      await res.body.text();
      if (res.statusCode !== 200) throw new Error(`undici loop: answer ${res.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const ms = performance.now() - start;
  await pool.close();
  if (!sameBytes) throw new Error("undici loop: a message differs from the emulator's (bytes or signature)");
  return ms;
}

/** Deliveries per second, emulator vs bare loops, interleaved. */
export async function throughput({ rounds = 15, messages = 2000 } = {}): Promise<BenchReport> {
  const receiver = await startReceiver();
  try {
    // Warm up every path (JIT, sockets).
    for (let w = 0; w < 2; w++) {
      const warm = await emulatorRun(receiver.url, messages);
      await undiciRun(receiver.url, warm.bodies, warm.signatures);
      await bareRun(receiver.url, warm.bodies, warm.signatures, false);
      await bareRun(receiver.url, warm.bodies, warm.signatures, true);
    }
    // CPU per delivery of this process (the sender's; the receiver has its own): bare ÷ emulator.
    const cpuRatios: number[] = [];
    const emu: number[] = [];
    const und: number[] = [];
    const bare: number[] = [];
    const kept: number[] = [];
    const ratios: number[] = [];
    const httpRatios: number[] = [];
    const keptRatios: number[] = [];
    let bodyBytes = 0;
    const rate = (ms: number) => (messages / ms) * 1000;
    for (let r = 0; r < rounds; r++) {
      // The emulator first in even rounds, last in odd ones; the baselines post its bodies.
      const run = await emulatorRun(receiver.url, messages);
      bodyBytes = Buffer.byteLength(run.bodies[0] as string);
      const u = await undiciRun(receiver.url, run.bodies, run.signatures);
      const b = await bareRun(receiver.url, run.bodies, run.signatures, false);
      const k = await bareRun(receiver.url, run.bodies, run.signatures, true);
      const e = r % 2 === 0 ? run : await emulatorRun(receiver.url, messages);
      emu.push(rate(e.ms));
      und.push(rate(u));
      bare.push(rate(b.ms));
      kept.push(rate(k.ms));
      ratios.push(rate(e.ms) / rate(u));
      httpRatios.push(rate(e.ms) / rate(b.ms));
      keptRatios.push(rate(e.ms) / rate(k.ms));
      cpuRatios.push(b.cpu / e.cpu);
    }
    const ratio = median(ratios);
    const row = (sender: string, rates: number[]) => ({
      sender,
      'deliveries/s (median)': fmt(median(rates)),
      min: fmt(Math.min(...rates)),
      max: fmt(Math.max(...rates)),
    });
    return {
      title: `emulator: deliveries/s of ${fmt(bodyBytes)} B signed messages vs a bare node:http loop, a connection per request`,
      rows: [
        row('createEmulator (ingest → sign → POST → record)', emu),
        row('bare http.request loop, a connection per request (serialize + sign + POST), same messages', bare),
        row('bare http.request loop on kept-alive connections, same messages (reference)', kept),
        row('bare undici Pool.request loop, kept-alive, same messages (reference)', und),
      ],
      ratios: {
        'emulator / http.request loop': Math.round(median(httpRatios) * 100) / 100,
        'CPU per delivery, http.request loop / emulator': Math.round(median(cpuRatios) * 100) / 100,
        'emulator / keep-alive http.request loop': Math.round(median(keptRatios) * 100) / 100,
        'emulator / undici loop': Math.round(ratio * 100) / 100,
      },
      bars: { 'emulator / http.request loop': 0.75 },
      notes: [
        `${rounds} interleaved rounds of ${fmt(messages)} messages; per-round ratios to the node:http loop ${httpRatios.map((x) => x.toFixed(2)).join(', ')} (spread ${Math.min(...httpRatios).toFixed(2)}–${Math.max(...httpRatios).toFixed(2)}); of CPU per delivery ${cpuRatios.map((x) => x.toFixed(2)).join(', ')}.`,
        `All send with ${CONCURRENCY} requests in flight to one node:http receiver in its own process; the emulator and the baseline open a connection per request.`,
        `@hookgate/emulator resolved to ${fileURLToPath(import.meta.resolve('@hookgate/emulator')).replace(ROOT, '')}: bench/run.ts loads the built dist/, a direct run the sources.`,
        `The emulator time runs from the first track() call (validation, message, JSON, HMAC-SHA1, record) to drain(); calls arrive ${CALLS_PER_TURN} per event-loop turn.`,
      ],
    };
  } finally {
    receiver.stop();
  }
}

// ---- memory ----

const BUILT = fileURLToPath(new URL('../packages/emulator/dist/index.js', import.meta.url));

/**
 * The memory child, in plain JavaScript on the built package (what users run; no TypeScript loader
 * in the process, so the figure is the emulator's and not tsx's). It sends `pending` 1 KB messages to
 * a receiver that answers 503, waits until every first attempt ended, forces a GC and prints its
 * memory. `properties` is the same function as above, inlined.
 */
const MEMORY_CHILD = `
const [url, pending, built] = process.argv.slice(1);
const { createEmulator, ManualClock } = await import(built);
const __name = (f) => f; // the TypeScript loader's keep-names helper, which properties' source may call
const properties = ${properties.toString()};
const n = Number(pending);
const clock = new ManualClock();
const emulator = createEmulator({
  clock,
  sources: [{ writeKey: 'wk', webhooks: { enabled: true, endpoints: [{ url: url + '/fail' }], sharedSecret: ${JSON.stringify(SECRET)} } }],
});
let ended = 0;
const firstRound = new Promise((resolve) => emulator.on('attempt', () => ++ended === n && resolve()));
// Peak RSS: the kernel's high-water mark (resourceUsage().maxRSS, KiB), and a 10 ms sample as a cross-check.
let sampledPeak = process.memoryUsage.rss();
const sampler = setInterval(() => { sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss()); }, 10);
const start = performance.now();
for (let i = 0; i < n; i++) {
  emulator.track({ userId: 'user_' + (i % 1000), event: 'Order Completed', properties: properties(i) });
  if (i % 2000 === 1999) await new Promise((r) => setImmediate(r)); // answers come in while calls arrive
}
await firstRound;
const seconds = (performance.now() - start) / 1000;
sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss());
clearInterval(sampler);
const peakRss = Math.max(process.resourceUsage().maxRSS * 1024, sampledPeak);
globalThis.gc();
const firstRss = process.memoryUsage().rss;
// V8 gives pages back over the next seconds: measure once RSS stops falling (the messages stay pending).
let mem = process.memoryUsage();
for (let k = 0, last = Infinity, still = 0; k < 15 && still < 3; k++) {
  await new Promise((r) => setTimeout(r, 1000));
  globalThis.gc();
  mem = process.memoryUsage();
  still = mem.rss >= last ? still + 1 : 0;
  last = Math.min(last, mem.rss);
}
const waiting = emulator.deliveries.filter((r) => r.state === 'pending' && r.nextAttemptAt !== undefined).length;
process.stdout.write(JSON.stringify({ peakRss, sampledPeak, rss: mem.rss, firstRss, heapUsed: mem.heapUsed, heapTotal: mem.heapTotal, external: mem.external, waiting, timers: clock.pendingTimers, seconds }) + '\\n');
await emulator.close();
process.exit(0);
`;

/** RSS of a process holding `pending` messages waiting for their retry. */
export async function memory({ pending = 100_000 } = {}): Promise<BenchReport> {
  if (!existsSync(BUILT))
    throw new Error(`memory benchmark: ${BUILT} is missing; run pnpm build (pnpm bench does) first`);
  const receiver = await startReceiver();
  try {
    const child = spawn(
      process.execPath,
      [
        '--expose-gc',
        '--input-type=module',
        '-e',
        MEMORY_CHILD,
        receiver.url,
        String(pending),
        pathToFileURL(BUILT).href,
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, DEBUG: '' } },
    );
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.on('error', reject);
      child.on('exit', (code) =>
        code === 0
          ? resolve(out.trim().split('\n')[0] as string)
          : reject(new Error(`memory child exited with ${code}: ${out}`)),
      );
    });
    const result = JSON.parse(line) as {
      peakRss: number;
      sampledPeak: number;
      rss: number;
      firstRss: number;
      heapUsed: number;
      heapTotal: number;
      external: number;
      waiting: number;
      timers: number;
      seconds: number;
    };
    if (result.waiting !== pending)
      throw new Error(`memory child: ${result.waiting} of ${pending} messages were waiting for a retry`);
    const mb = (bytes: number) => bytes / 2 ** 20;
    return {
      title: `emulator: memory with ${fmt(pending)} 1 KB messages pending retry on a ManualClock`,
      rows: [
        {
          'pending retry': fmt(result.waiting),
          'clock timers (all retries)': fmt(result.timers),
          'peak RSS (MB)': fmt(mb(result.peakRss), 1),
          'RSS settled, after forced GCs (MB)': fmt(mb(result.rss), 1),
          'heap used / total (MB)': `${fmt(mb(result.heapUsed), 1)} / ${fmt(mb(result.heapTotal), 1)}`,
          'external (MB)': fmt(mb(result.external), 1),
          'first round (s)': fmt(result.seconds, 1),
        },
      ],
      ratios: {
        [`${RSS_BUDGET_MB} MB budget / peak RSS`]: Math.round((RSS_BUDGET_MB / mb(result.peakRss)) * 100) / 100,
      },
      bars: { [`${RSS_BUDGET_MB} MB budget / peak RSS`]: 1 },
      notes: [
        'A child process (plain node on the built dist/, no TypeScript loader). The bar is on PEAK RSS while the calls arrive and the first',
        'round is answered: the kernel high-water mark (process.resourceUsage().maxRSS), cross-checked by sampling rss every 10 ms',
        `(sampled peak ${fmt(mb(result.sampledPeak), 1)} MB). Settled RSS: after forced GCs, once RSS stops falling; right after the first round ${fmt(mb(result.firstRss), 1)} MB.`,
        'Each record keeps its body once, as the UTF-8 bytes that were signed (an exact-size Uint8Array, outside the JS heap: `external`), its signature and its first attempt; one clock timer serves every waiting retry. RSS includes Node itself (about 40 MB).',
      ],
    };
  } finally {
    receiver.stop();
  }
}

/** Both emulator benchmarks, for bench/run.ts. */
export default async function emulatorBench(): Promise<BenchReport[]> {
  return [await throughput(), await memory()];
}

// ---- entry points ----

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const { values } = parseArgs({
    options: {
      receiver: { type: 'boolean' },
      rounds: { type: 'string' },
      messages: { type: 'string' },
      pending: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.receiver) await serveReceiver();
  else {
    const reports = [
      await throughput({ rounds: Number(values.rounds ?? 15), messages: Number(values.messages ?? 2000) }),
      await memory({ pending: Number(values.pending ?? 100_000) }),
    ];
    let pass = true;
    for (const r of reports) pass = printReport(r) && pass;
    process.exitCode = pass ? 0 : 1;
  }
}
