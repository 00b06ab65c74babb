// Durable handoff (@hookgate/bullmq): req/s of core's receiver with `enqueue: enqueueTo(queue)` against a
// hand-written node:http route (createHmac + timingSafeEqual, JSON.parse, queue.add with the messageId as
// job id) on the same machine and the same redis-server, in interleaved rounds; both routes are served by
// one child process (this file with --serve), so autocannon's own CPU is not the servers', and that
// process is started afresh for each share of the rounds; then messages per second end to end (signed
// POST → receiver → Redis → one createWorker) with one worker.
// BENCH_BULLMQ_PROCESSES (default 3) × BENCH_BULLMQ_ROUNDS (default 5) rounds of BENCH_BULLMQ_SECONDS (default 1),
// after BENCH_BULLMQ_WARM_SECONDS (default 3) per route and process; BENCH_BULLMQ_MESSAGES (default 5000).
// Alone: `TSX_TSCONFIG_PATH=test/runtimes/tsconfig.dist.json node --import tsx bench/bullmq.ts`; with the others: `pnpm bench bullmq`.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createReceiver, fixture, sign, toNodeListener } from '@hookgate/core';
import { DEFAULT_JOB_OPTIONS, createWorker, enqueueTo } from '@hookgate/bullmq';
import { Redis } from 'ioredis';
import { Queue } from 'bullmq';
import { startRedisServer } from '../test/helpers/redis-server.js';
import { fmt, median, printReport, startServer, type BenchReport } from './lib.js';

interface AutocannonRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
}
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  requests?: AutocannonRequest[];
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

for (const name of ['@hookgate/core', '@hookgate/bullmq']) {
  const file = fileURLToPath(import.meta.resolve(name));
  if (!file.includes('/dist/')) {
    throw new Error(
      `${name} resolved to ${file}, not to its build: run pnpm build, then pnpm bench bullmq (or set TSX_TSCONFIG_PATH=test/runtimes/tsconfig.dist.json)`,
    );
  }
}

const SECRET = 'bench-secret';
const CONNECTIONS = 10;
const SECONDS = Number(process.env.BENCH_BULLMQ_SECONDS ?? 1);
const ROUNDS = Number(process.env.BENCH_BULLMQ_ROUNDS ?? 5);
const PROCESSES = Number(process.env.BENCH_BULLMQ_PROCESSES ?? 3);
const WARM_SECONDS = Number(process.env.BENCH_BULLMQ_WARM_SECONDS ?? 3);
const MESSAGES = Number(process.env.BENCH_BULLMQ_MESSAGES ?? 5000);
const base = fixture('track');

/** Unique messages (fresh messageId, signed per request), so every request makes a job. */
function uniqueLoad(runId: string): AutocannonRequest[] {
  let n = 0;
  return [
    {
      method: 'POST',
      setupRequest: (request) => {
        const body = JSON.stringify({ ...base, messageId: `${runId}-${(n++).toString(36)}` });
        return {
          ...request,
          body,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Segment.io/1.0',
            'x-signature': sign(body, SECRET),
          },
        };
      },
    },
  ];
}

/** CPU seconds redis-server has used so far (INFO cpu). */
async function redisCpuSeconds(admin: Redis): Promise<number> {
  const info = await admin.info('cpu');
  const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  return field('used_cpu_user') + field('used_cpu_sys');
}

/** A round's figures and the CPU seconds the server process and redis-server spent on it. */
async function measure(
  admin: Redis,
  serverCpu: () => Promise<number>,
  url: string,
  runId: string,
  seconds: number,
): Promise<AutocannonResult & { cpuSeconds: number }> {
  const before = await serverCpu();
  const redisBefore = await redisCpuSeconds(admin);
  const result = await fire(url, runId, seconds);
  const server = (await serverCpu()) - before;
  return { ...result, cpuSeconds: server / 1e6 + (await redisCpuSeconds(admin)) - redisBefore };
}

async function fire(url: string, runId: string, seconds: number): Promise<AutocannonResult> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, requests: uniqueLoad(runId) });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `bench/bullmq: ${url} got ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts; the figures would be meaningless.`,
    );
  }
  return result;
}

/** The hand-written route: what a careful user writes without hookgate. */
function handWritten(queue: Queue): http.RequestListener {
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const given = Buffer.from(String(req.headers['x-signature'] ?? ''), 'hex');
      const expected = createHmac('sha1', SECRET).update(raw).digest();
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        res.writeHead(401).end();
        return;
      }
      const message = JSON.parse(raw.toString('utf8')) as { type: string; messageId: string };
      // The same job options as enqueueTo's (retries, backoff, completed jobs kept): a production route sets them too.
      queue.add(message.type, { message }, { ...DEFAULT_JOB_OPTIONS, jobId: `m-${message.messageId}` }).then(
        () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
        () => res.writeHead(503).end(),
      );
    });
  };
}

/** `--serve`: both routes on node:http in this process; prints their URLs, then its CPU time (µs) per stdin line. */
async function serve(): Promise<void> {
  const connection = { host: '127.0.0.1', port: Number(process.env.BENCH_REDIS_PORT) };
  const receiver = createReceiver({ secret: SECRET, enqueue: enqueueTo(new Queue('bench-hookgate', { connection })) });
  const hg = await startServer(toNodeListener(receiver));
  const hw = await startServer(handWritten(new Queue('bench-handwritten', { connection })));
  console.log(`BENCH_URLS=${JSON.stringify({ hg: hg.url, hw: hw.url })}`);
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', () => {
    const { user, system } = process.cpuUsage();
    console.log(`CPU=${user + system}`);
  });
  process.stdin.on('end', () => process.exit(0));
}

/** The server process: its URLs, and its CPU time so far (µs). */
async function startServers(
  redisPort: number,
): Promise<{ urls: { hg: string; hw: string }; cpu(): Promise<number>; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve'], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: {
      ...process.env,
      BENCH_REDIS_PORT: String(redisPort),
      TSX_TSCONFIG_PATH: fileURLToPath(new URL('../test/runtimes/tsconfig.dist.json', import.meta.url)),
    },
  });
  let out = '';
  let cpuWaiter: ((us: number) => void) | undefined;
  const urls = await new Promise<{ hg: string; hw: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bench/bullmq servers did not start:\n${out}`)), 30_000);
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /BENCH_URLS=(\{.*\})/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(JSON.parse(m[1]!));
      }
      const cpu = /CPU=(\d+)/.exec(c.toString());
      if (cpu && cpuWaiter) cpuWaiter(Number(cpu[1]));
    });
    child.once('exit', (code) => reject(new Error(`bench/bullmq servers exited (${code}):\n${out}`)));
  });
  return {
    urls,
    child,
    cpu: () =>
      new Promise<number>((resolve) => {
        cpuWaiter = resolve;
        child.stdin.write('cpu\n');
      }),
  };
}

/** Runs the durable handoff benchmark and returns its report. */
export default async function bullmqBench(): Promise<BenchReport> {
  const redis = await startRedisServer();
  const connection = { host: '127.0.0.1', port: redis.port };
  const closers: Array<() => Promise<unknown>> = [];
  try {
    const loadBefore = loadavg()[0]!;
    const admin = new Redis(redis.port, '127.0.0.1');
    closers.push(async () => admin.disconnect());
    const hookgateRuns: AutocannonResult[] = [];
    const handRuns: AutocannonResult[] = [];
    const ratios: number[] = [];
    const cpuRatios: number[] = [];
    // A fresh server process for each share of the rounds: how V8 happens to compile one process
    // moved whole runs by ±0.08, so the median is taken over several processes, not one.
    for (let p = 0; p < PROCESSES; p++) {
      const servers = await startServers(redis.port);
      try {
        await fire(servers.urls.hg, `warm-hg-${p}`, WARM_SECONDS);
        await fire(servers.urls.hw, `warm-hw-${p}`, WARM_SECONDS);
        for (let i = 0; i < ROUNDS; i++) {
          const order = i % 2 === 0 ? (['hg', 'hw'] as const) : (['hw', 'hg'] as const);
          const got: Partial<Record<'hg' | 'hw', AutocannonResult & { cpuSeconds: number }>> = {};
          for (const which of order)
            got[which] = await measure(admin, servers.cpu, servers.urls[which], `${which}-${p}-${i}`, SECONDS);
          const a = got.hg!;
          const b = got.hw!;
          hookgateRuns.push(a);
          handRuns.push(b);
          ratios.push(a.requests.average / b.requests.average);
          cpuRatios.push(a.requests.total / a.cpuSeconds / (b.requests.total / b.cpuSeconds));
        }
      } finally {
        const exited = new Promise((r) => servers.child.once('exit', r));
        servers.child.stdin!.end();
        await exited;
      }
    }

    // End to end: MESSAGES signed POSTs (20 at a time) through the receiver, processed by one worker.
    const e2eQueue = new Queue('bench-e2e', { connection });
    closers.push(() => e2eQueue.close());
    const e2e = await startServer(toNodeListener(createReceiver({ secret: SECRET, enqueue: enqueueTo(e2eQueue) })));
    closers.push(() => e2e.close());
    let processed = 0;
    let allDone: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (allDone = resolve));
    const worker = createWorker('bench-e2e', {
      // One worker; each job's handler does nothing, so this is the pipeline's own cost.
      connection,
      concurrency: 50,
      onMessage: () => {
        if (++processed === MESSAGES) allDone();
      },
    });
    closers.push(() => worker.close());
    await worker.waitUntilReady();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 20 });
    const post = (body: string) =>
      new Promise<void>((resolve, reject) => {
        const req = http.request(
          e2e.url,
          { method: 'POST', agent, headers: { 'content-type': 'application/json', 'x-signature': sign(body, SECRET) } },
          (res) => {
            res.resume();
            res.on('end', () =>
              res.statusCode === 200 ? resolve() : reject(new Error(`end-to-end: answered ${res.statusCode}`)),
            );
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < MESSAGES) await post(JSON.stringify({ ...base, messageId: `e2e-${next++}` }));
      }),
    );
    const acceptedMs = performance.now() - started;
    await finished;
    const e2eMs = performance.now() - started;
    agent.destroy();
    const loadAfter = loadavg()[0]!;

    const row = (label: string, results: AutocannonResult[]) => ({
      route: label,
      'req/s (median)': fmt(median(results.map((r) => r.requests.average))),
      'p50 ms': fmt(median(results.map((r) => r.latency.p50)), 1),
      'p99 ms': fmt(median(results.map((r) => r.latency.p99)), 1),
    });
    return {
      title: `Durable handoff: verify + enqueue (core listener, enqueueTo) vs createHmac + queue.add (node:http), autocannon ${CONNECTIONS} connections, ${SECONDS} s rounds`,
      rows: [
        row('hookgate: createReceiver({ secret, enqueue: enqueueTo(queue) })', hookgateRuns),
        row('hand-written: createHmac + timingSafeEqual + JSON.parse + queue.add', handRuns),
        {
          route: `end to end, ${MESSAGES} messages, 20 senders, 1 worker (concurrency 50)`,
          'req/s (median)': `${fmt((MESSAGES / e2eMs) * 1000)} messages/s processed (${fmt((MESSAGES / acceptedMs) * 1000)}/s accepted)`,
          'p50 ms': '',
          'p99 ms': '',
        },
      ],
      ratios: {
        'verify + enqueue / hand-written req/s': median(ratios),
        'verify + enqueue / hand-written requests per CPU second': median(cpuRatios),
      },
      bars: { 'verify + enqueue / hand-written req/s': 0.9 },
      notes: [
        'Both routes on node:http in one server process (autocannon in another), both queues on one redis-server (loopback, started by the benchmark); every request a fresh messageId, so every request stores a job.',
        'hookgate also checks the method, content type and length, validates the message, makes its dedupe key, races the store against the deadline and answers with a JSON reason; both jobs hold { message } under an id made from the messageId.',
        `per-round req/s ratios (${PROCESSES} server processes × ${ROUNDS} rounds): ${ratios.map((r) => r.toFixed(2)).join(', ')}; per CPU second (server process + redis-server): ${cpuRatios.map((r) => r.toFixed(2)).join(', ')}.`,
        'hand-written jobs get the same job options as enqueueTo (DEFAULT_JOB_OPTIONS: attempts, backoff, completed jobs kept), so the ratio is the cost of what hookgate adds, not of those options.',
        `end to end: ${(e2eMs / 1000).toFixed(1)} s from the first POST to the ${MESSAGES}th job done; the worker runs in this process (its handler does nothing).`,
        `1-minute load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after, on ${availableParallelism()} CPUs.`,
      ],
    };
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await redis.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv.includes('--serve')) await serve();
  else printReport(await bullmqBench());
}
