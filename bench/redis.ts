// Requests per second of a Fastify receiver (@hookgate/fastify) with the Redis dedupe store against the same receiver
// with the in-memory store, measured in one run (short rounds interleaved, medians of per-round ratios).
// BENCH_REDIS_SECONDS (default 1) and BENCH_REDIS_ROUNDS (default 9) set the round length and count.
// Alone: `TSX_TSCONFIG_PATH=test/runtimes/tsconfig.dist.json node --import tsx bench/redis.ts` (the built
// packages; under the root tsconfig tsx would map @hookgate/* to the sources, and this file refuses);
// with the others: `pnpm bench redis`.
import { createRequire } from 'node:module';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { fixture, MemoryIdempotencyStore, sign, type IdempotencyStore } from '@hookgate/core';
import { hookgate } from '@hookgate/fastify';
import { RedisIdempotencyStore } from '@hookgate/redis';
import { Redis } from 'ioredis';
import { startRedisServer } from '../test/helpers/redis-server.js';
import { fmt, median, printReport, type BenchReport } from './lib.js';

/** The part of autocannon's API used here (it ships no types). */
interface AutocannonRequest {
  method?: string;
  path?: string;
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
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  requests?: AutocannonRequest[];
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

// The figures are about the built packages (dist/), what users run.
for (const name of ['@hookgate/core', '@hookgate/fastify', '@hookgate/redis']) {
  const file = fileURLToPath(import.meta.resolve(name));
  if (!file.includes('/dist/')) {
    throw new Error(
      `${name} resolved to ${file}, not to its build: run pnpm build, then pnpm bench redis (or set TSX_TSCONFIG_PATH=test/runtimes/tsconfig.dist.json)`,
    );
  }
}

const SECRET = 'bench-secret';
const cpus = availableParallelism();
const CONNECTIONS = 10;
const SECONDS = Number(process.env.BENCH_REDIS_SECONDS ?? 1);
const ROUNDS = Number(process.env.BENCH_REDIS_ROUNDS ?? 9);

type Mode = 'unique' | 'duplicate';

/** What autocannon sends: a fresh messageId (so a fresh signature) per request, or one body again and again. */
function load(mode: Mode, runId: string): Pick<Parameters<Autocannon>[0], 'method' | 'headers' | 'body' | 'requests'> {
  const headers = { 'content-type': 'application/json', 'user-agent': 'Segment.io/1.0' };
  const base = fixture('track');
  if (mode === 'duplicate') {
    const body = JSON.stringify({ ...base, messageId: `dup-${runId}` });
    return { method: 'POST', body, headers: { ...headers, 'x-signature': sign(body, SECRET) } };
  }
  let n = 0;
  return {
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          const body = JSON.stringify({ ...base, messageId: `u-${runId}-${(n++).toString(36)}` });
          return { ...request, body, headers: { ...headers, 'x-signature': sign(body, SECRET) } };
        },
      },
    ],
  };
}

async function fire(url: string, mode: Mode, runId: string, seconds: number): Promise<AutocannonResult> {
  const requests = load(mode, runId);
  if (mode === 'duplicate') {
    // Handle the message once first: otherwise the first concurrent copies are rightly answered 503 in_flight.
    const res = await fetch(url, { method: 'POST', headers: requests.headers, body: requests.body });
    if (res.status !== 200) throw new Error(`bench/redis: priming ${url} answered ${res.status}.`);
  }
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, ...requests });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `bench/redis: ${mode} load on ${url} got ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts; the figures would be meaningless.`,
    );
  }
  return result;
}

/** One measured round: autocannon's figures, and the CPU seconds this process and redis-server spent. */
interface Measured extends AutocannonResult {
  cpuSeconds: number;
}

/** CPU seconds redis-server has used so far (INFO cpu). */
async function redisCpuSeconds(admin: Redis): Promise<number> {
  const info = await admin.info('cpu');
  const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  return field('used_cpu_user') + field('used_cpu_sys');
}

async function measure(admin: Redis, url: string, mode: Mode, runId: string, seconds: number): Promise<Measured> {
  const cpu = process.cpuUsage();
  const redisBefore = await redisCpuSeconds(admin);
  const result = await fire(url, mode, runId, seconds);
  const own = process.cpuUsage(cpu);
  const redisSpent = (await redisCpuSeconds(admin)) - redisBefore;
  return { ...result, cpuSeconds: (own.user + own.system) / 1e6 + redisSpent };
}

interface Comparison {
  memory: Measured[];
  redis: Measured[];
  /** Per round: Redis req/s over memory req/s. */
  ratios: number[];
  /** Per round: Redis requests per CPU second over memory's (this process plus redis-server). */
  cpuRatios: number[];
}

async function compare(
  admin: Redis,
  targets: { memory: string; redis: string },
  mode: Mode,
  rounds: number,
): Promise<Comparison> {
  const out: Comparison = { memory: [], redis: [], ratios: [], cpuRatios: [] };
  await fire(targets.memory, mode, `warm-m-${mode}`, 1);
  await fire(targets.redis, mode, `warm-r-${mode}`, 1);
  for (let i = 0; i < rounds; i++) {
    // Alternate which goes first, so that drift in machine load favours neither.
    const order = i % 2 === 0 ? (['memory', 'redis'] as const) : (['redis', 'memory'] as const);
    const got: Partial<Record<'memory' | 'redis', Measured>> = {};
    for (const which of order)
      got[which] = await measure(admin, targets[which], mode, `${mode}-${which}-${i}`, SECONDS);
    const m = got.memory!;
    const r = got.redis!;
    out.memory.push(m);
    out.redis.push(r);
    out.ratios.push(r.requests.average / m.requests.average);
    out.cpuRatios.push(r.requests.total / r.cpuSeconds / (m.requests.total / m.cpuSeconds));
  }
  return out;
}

/** Runs the Redis dedupe store benchmark and returns its report. */
export default async function redisBench(): Promise<BenchReport> {
  const server = await startRedisServer();
  const redisStore = new RedisIdempotencyStore({ connection: server.url, keyPrefix: 'bench:dedupe:' });
  const admin = new Redis(server.url);
  const listeners: Array<{ close(): Promise<void> }> = [];
  try {
    await redisStore.ready();
    const start = async (store: IdempotencyStore) => {
      // An adapter, as the issue asks: the Fastify plugin, the same on both sides but for the store.
      const app = Fastify();
      await app.register(hookgate, { secret: SECRET, path: '/', dedupe: { store }, on: { track: () => undefined } });
      await app.listen({ host: '127.0.0.1', port: 0 });
      listeners.push({ close: () => app.close() });
      return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    };
    const targets = { memory: await start(new MemoryIdempotencyStore()), redis: await start(redisStore) };
    const loadBefore = loadavg()[0]!;
    const unique = await compare(admin, targets, 'unique', ROUNDS);
    const duplicate = await compare(admin, targets, 'duplicate', Math.max(3, Math.ceil(ROUNDS / 2)));
    const loadAfter = loadavg()[0]!;

    const row = (label: string, results: Measured[]) => ({
      'store / load': label,
      'req/s (median)': fmt(median(results.map((r) => r.requests.average))),
      'req per CPU s': fmt(median(results.map((r) => r.requests.total / r.cpuSeconds))),
      'p50 ms': fmt(median(results.map((r) => r.latency.p50)), 1),
      'p99 ms': fmt(median(results.map((r) => r.latency.p99)), 1),
    });
    return {
      title: `Redis dedupe store vs in-memory store (@hookgate/fastify receiver, autocannon ${CONNECTIONS} connections, ${SECONDS} s rounds)`,
      rows: [
        row('memory, unique messages', unique.memory),
        row('redis, unique messages', unique.redis),
        row('memory, duplicates', duplicate.memory),
        row('redis, duplicates', duplicate.redis),
      ],
      ratios: {
        'redis / memory req/s, unique messages': median(unique.ratios),
        'redis / memory req/s, duplicates': median(duplicate.ratios),
        'redis / memory requests per CPU second, unique messages': median(unique.cpuRatios),
        'redis / memory requests per CPU second, duplicates': median(duplicate.cpuRatios),
      },
      bars: {},
      notes: [
        'unique: every request carries a fresh messageId, signed per request in setupRequest; each costs a claim (one EVALSHA) and a complete (one SET): two Redis round trips.',
        'duplicates: one body again and again; each request is a claim that finds "done": one round trip, the handler never runs.',
        'Redis runs on the same machine (loopback); the receiver, the Redis client and autocannon share one Node process, redis-server has its own.',
        "requests per CPU second: CPU time of this process (receiver, Redis client, autocannon) plus redis-server's (INFO cpu), so the figure holds on a busy machine where req/s swings with the load of other processes.",
        `${unique.ratios.length} + ${duplicate.ratios.length} interleaved rounds; per-round req/s ratios: unique ${unique.ratios.map((r) => r.toFixed(2)).join(', ')}; duplicates ${duplicate.ratios.map((r) => r.toFixed(2)).join(', ')}.`,
        `1-minute load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after, on ${cpus} CPUs; with a load above the CPU count, req/s figures are noisy.`,
      ],
    };
  } finally {
    await Promise.all(listeners.map((l) => l.close()));
    admin.disconnect();
    await redisStore.close();
    await server.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printReport(await redisBench());
}
