// Adapters: requests per second of a webhook route behind hookgate against the same framework's
// plain route that parses JSON and answers 200, for Express 5, Fastify 5 and Hono (on Node).
// autocannon, 10 connections, 127.0.0.1, a 1 KB signed track message. The servers run in a child
// process (one core) and autocannon in this one (the other core); plain and hookgate alternate in
// rounds so that machine drift hits both alike; the figure is the median of per-round ratios.
// Bar: each adapter keeps ≥ 0.85 of its plain route's requests per second.
//   Run alone: node --import tsx bench/adapters.ts
//   Settings: BENCH_ADAPTERS_SECONDS (per run, default 2), BENCH_ADAPTERS_ROUNDS (default 5),
//   BENCH_ADAPTERS_FRAMEWORKS (a comma list, default express,fastify,hono).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fixture, sign } from '@hookgate/core';
import { fmt, median, printReport, type BenchReport } from './lib.js';

const SECRET = 'whsec_bench_adapters_61d0';
const FRAMEWORKS = ['express', 'fastify', 'hono'] as const;
type Framework = (typeof FRAMEWORKS)[number];
const BAR = 0.85;

/** A realistic 1 KB track message, as the sender would serialize it. */
function body1k(): string {
  const products: unknown[] = [];
  const message = {
    ...fixture('track'),
    messageId: 'api-2Vx1Wq8ZpQm7Lr4Tn9Yk3Hs6Jd0',
    context: { ip: '203.0.113.9', library: { name: 'analytics-go', version: '2.0.0' }, userAgent: 'Mozilla/5.0 (X11; Linux x86_64)' },
    properties: { orderId: 'ord_77', revenue: 42.5, currency: 'EUR', products },
  };
  for (let i = 0; JSON.stringify(message).length < 1000; i++) products.push({ sku: `SKU-${1000 + i}`, name: `Product ${i} — café`, price: 9.99 + i });
  return JSON.stringify(message);
}

// ---- the servers (child process) ----------------------------------------------------------------

/** Starts, per framework, one app with `/plain` and `/webhooks`, and prints their base URLs as JSON. */
async function serve(): Promise<void> {
  const express = (await import('express')).default;
  const { hookgate: expressHookgate } = await import('@hookgate/express');
  const Fastify = (await import('fastify')).default;
  const { hookgate: fastifyHookgate } = await import('@hookgate/fastify');
  const { Hono } = await import('hono');
  const { createAdaptorServer } = await import('@hono/node-server');
  const { hookgate: honoHookgate } = await import('@hookgate/hono');
  // Every request repeats one body: dedupe would answer all but the first as duplicates without running
  // the handler (faster, and not what is being measured), so it is off on both sides of the ratio.
  const options = { secret: SECRET, dedupe: false as const, onMessage: () => {} };
  const urls: Record<string, string> = {};
  const listen = async (name: Framework, server: Server) => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    urls[name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  const ex = express();
  ex.post('/plain', express.json(), (_req, res) => void res.json({ ok: true }));
  ex.post('/webhooks', expressHookgate(options));
  await listen('express', ex.listen(0, '127.0.0.1'));

  const fa = Fastify();
  fa.post('/plain', async () => ({ ok: true }));
  await fa.register(fastifyHookgate, { ...options, path: '/webhooks' });
  await fa.listen({ host: '127.0.0.1', port: 0 });
  urls.fastify = `http://127.0.0.1:${(fa.server.address() as AddressInfo).port}`;

  const ho = new Hono();
  ho.post('/plain', async (c) => {
    await c.req.json();
    return c.json({ ok: true });
  });
  ho.post('/webhooks', honoHookgate(options));
  await listen('hono', createAdaptorServer({ fetch: ho.fetch }) as Server);

  console.log(`BENCH_URLS=${JSON.stringify(urls)}`);
  // On each line on stdin, report this process's CPU time (µs): the parent divides it by requests.
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', () => {
    const { user, system } = process.cpuUsage();
    console.log(`CPU=${user + system}`);
  });
}

// ---- the load (this process) --------------------------------------------------------------------

interface CannonResult {
  requests: { average: number; total: number };
  duration: number;
  non2xx: number;
  errors: number;
}
type Cannon = (opts: Record<string, unknown>) => Promise<CannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Cannon;

/** One load run: requests per second, and the server's CPU time per request (µs). */
interface Run {
  rps: number;
  cpuPerRequest: number;
}

async function load(servers: Servers, url: string, body: string, seconds: number): Promise<Run> {
  const cpuBefore = await servers.cpu();
  const result = await autocannon({
    url,
    method: 'POST',
    connections: 10,
    duration: seconds,
    headers: { 'content-type': 'application/json', 'user-agent': 'Segment.io/1.0', 'x-signature': sign(body, SECRET) },
    body,
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`bench setup: ${url} answered ${result.non2xx} non-2xx and ${result.errors} errors; the figures would be meaningless.`);
  }
  const cpu = (await servers.cpu()) - cpuBefore;
  return { rps: result.requests.total / result.duration, cpuPerRequest: cpu / result.requests.total };
}

interface Servers {
  urls: Record<Framework, string>;
  /** The servers' process CPU time so far, µs. */
  cpu(): Promise<number>;
  stop(): Promise<void>;
}

async function startServers(): Promise<Servers> {
  // The servers load the BUILT packages (what users run): tsx would otherwise follow the root
  // tsconfig's paths to src/, transpiled with helpers that dist/ does not have.
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve'], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, TSX_TSCONFIG_PATH: fileURLToPath(new URL('../test/runtimes/tsconfig.dist.json', import.meta.url)) },
  });
  let out = '';
  const urls = await new Promise<Record<Framework, string>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bench servers did not start:\n${out}`)), 30_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /BENCH_URLS=(\{.*\})/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(JSON.parse(m[1]!));
      }
    });
    child.once('exit', (code) => reject(new Error(`bench servers exited (${code}):\n${out}`)));
  });
  let cpuWaiter: ((us: number) => void) | undefined;
  child.stdout!.on('data', (c: Buffer) => {
    const m = /CPU=(\d+)/.exec(c.toString());
    if (m && cpuWaiter) cpuWaiter(Number(m[1]));
  });
  return {
    urls,
    cpu: () =>
      new Promise<number>((resolve) => {
        cpuWaiter = resolve;
        child.stdin!.write('cpu\n');
      }),
    stop: async () => {
      child.stdin!.end();
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** The benchmark: one report, a ratio per framework. */
export default async function adaptersBench(): Promise<BenchReport> {
  const seconds = Number(process.env.BENCH_ADAPTERS_SECONDS ?? 2);
  const rounds = Number(process.env.BENCH_ADAPTERS_ROUNDS ?? 5);
  const body = body1k();
  const servers = await startServers();
  const { urls } = servers;
  const rows: BenchReport['rows'] = [];
  const ratios: Record<string, number> = {};
  const bars: Record<string, number> = {};
  try {
    const only = process.env.BENCH_ADAPTERS_FRAMEWORKS?.split(',').map((f) => f.trim());
    for (const fw of FRAMEWORKS.filter((f) => !only || only.includes(f))) {
      const plainUrl = `${urls[fw]}/plain`;
      const hookUrl = `${urls[fw]}/webhooks`;
      await load(servers, plainUrl, body, 1); // warm up both routes (JIT, sockets)
      await load(servers, hookUrl, body, 1);
      const plain: Run[] = [];
      const hooked: Run[] = [];
      const perRound: number[] = [];
      const cpuPerRound: number[] = [];
      for (let i = 0; i < rounds; i++) {
        let p: Run;
        let h: Run;
        if (i % 2 === 0) {
          p = await load(servers, plainUrl, body, seconds);
          h = await load(servers, hookUrl, body, seconds);
        } else {
          h = await load(servers, hookUrl, body, seconds);
          p = await load(servers, plainUrl, body, seconds);
        }
        plain.push(p);
        hooked.push(h);
        perRound.push(h.rps / p.rps);
        cpuPerRound.push(p.cpuPerRequest / h.cpuPerRequest);
      }
      const name = `${fw}: hookgate / plain route`;
      ratios[name] = median(perRound);
      bars[name] = BAR;
      rows.push({
        framework: fw === 'hono' ? 'hono (Node)' : fw,
        'plain req/s': fmt(median(plain.map((r) => r.rps))),
        'hookgate req/s': fmt(median(hooked.map((r) => r.rps))),
        'median ratio (req/s)': median(perRound).toFixed(3),
        'per-round ratios': perRound.map((r) => r.toFixed(2)).join(' '),
        'server CPU µs/req plain → hookgate': `${median(plain.map((r) => r.cpuPerRequest)).toFixed(1)} → ${median(hooked.map((r) => r.cpuPerRequest)).toFixed(1)}`,
        'CPU ratio (plain/hookgate)': median(cpuPerRound).toFixed(3),
      });
    }
  } finally {
    await servers.stop();
  }
  return {
    title: 'adapters: hookgate route vs plain JSON route (autocannon, 10 connections, 1 KB signed body)',
    rows,
    ratios,
    bars,
    notes: [
      `${rounds} alternating rounds of ${seconds} s per route after a 1 s warm-up; servers in a child process, autocannon in this one`,
      'CPU ratio: the server process CPU time per request, plain over hookgate — a check on the req/s ratio that other load on the machine disturbs less',
      'hookgate route: raw body read, HMAC-SHA1 verify, JSON parse, message validation, handler, JSON answer; dedupe off (one repeated body)',
      `Node ${process.version}, ${(await import('node:os')).cpus().length} CPUs`,
    ],
  };
}

const direct = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (direct && process.argv.includes('--serve')) {
  await serve();
} else if (direct) {
  const report = await adaptersBench();
  process.exitCode = printReport(report) ? 0 : 1;
}
