// Peers benchmark (issue 45): each webhook library beside a hand-written route doing the same work, in
// one run. Libraries: hookgate (core's node listener), @octokit/webhooks (createNodeMiddleware),
// standardwebhooks, svix and stripe (webhooks.constructEvent). Each library has its own server, a
// child process, with two routes on node:http: `/lib` (the library) and `/hand` (the same scheme's HMAC
// with node:crypto, compared in constant time, then JSON.parse of the body, and a small JSON answer).
// The figure is server CPU per request, read from each child's `process.cpuUsage` around each
// autocannon run (10 connections, the same 1 KB body), and its req/s; rounds interleave every
// (library, route, valid | forged) run, the order rotating; medians of per-round ratios.
//   Run alone: node --import tsx bench/peers.ts   (or `pnpm bench peers`, on the built packages)
//   Profile one route (after a warm-up): node --import tsx bench/peers.ts --profile <library> <lib|hand> [seconds]
//   Settings: BENCH_PEERS_SECONDS (per run, default 1), BENCH_PEERS_ROUNDS (default 5), BENCH_PEERS_CORE
//   (another build of core's dist/ for hookgate's route, e.g. packages/core/node_modules/.ab-before).
// Bars: hookgate's hand ÷ library CPU ≥ 0.72 on a valid request and above octokit's, standardwebhooks'
// and svix's; a forged request costs at most 1.5× its hand-written check (hand ÷ library ≥ 0.67).
import { spawn } from 'node:child_process';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import inspector from 'node:inspector';
import os from 'node:os';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as HookgateCore from '@hookgate/core';
import { trackBody1k } from './bodies.js';
import {
  LIBRARIES,
  SECRET,
  STRIPE_SECRET,
  SW_SECRET,
  handVerified,
  header,
  signedHeaders,
  type Library,
} from './peer-schemes.js';
import { fmt, median, printReport, type BenchReport } from './lib.js';
import { topFrames, type Profile } from './top-frames.js';

// ---- the servers (one child process per library) ------------------------------------------------

function readRaw(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function json(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

/** The library's route: its own middleware (hookgate, octokit), or its verify call on the raw body. */
async function libraryRoute(library: Library): Promise<(req: IncomingMessage, res: ServerResponse) => void> {
  const answered = (res: ServerResponse, verify: () => unknown) => {
    try {
      verify();
      json(res, 200, '{"ok":true}');
    } catch {
      json(res, 400, '{"ok":false}');
    }
  };
  switch (library) {
    case 'hookgate': {
      // BENCH_PEERS_CORE: another build's dist/ (an A/B profile, as in bench/receiver-ab.ts).
      const other = process.env.BENCH_PEERS_CORE;
      const { createReceiver, toNodeListener } = (await import(
        other ? pathToFileURL(path.resolve(other, 'node/index.js')).href : '@hookgate/core'
      )) as typeof HookgateCore;
      const listener = toNodeListener(
        createReceiver({ secret: SECRET, dedupe: false, logger: false, onMessage: () => {} }),
      );
      return (req, res) => void listener(req, res);
    }
    case 'octokit': {
      const { Webhooks, createNodeMiddleware } = await import('@octokit/webhooks');
      const webhooks = new Webhooks({ secret: SECRET });
      webhooks.on('push', () => {});
      const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
      const middleware = createNodeMiddleware(webhooks, { path: '/lib', log: quiet });
      return (req, res) => void middleware(req, res);
    }
    case 'standardwebhooks': {
      const { Webhook } = await import('standardwebhooks');
      const wh = new Webhook(SW_SECRET);
      return (req, res) =>
        void readRaw(req).then((raw) => answered(res, () => wh.verify(raw, req.headers as Record<string, string>)));
    }
    case 'svix': {
      const { Webhook } = await import('svix');
      const wh = new Webhook(SW_SECRET);
      // svix's verify checks only; the parse is the route's, as in svix's own examples.
      return (req, res) =>
        void readRaw(req).then((raw) =>
          answered(res, () => {
            wh.verify(raw, req.headers as Record<string, string>);
            return JSON.parse(raw.toString('utf8')) as unknown;
          }),
        );
    }
    case 'stripe': {
      const Stripe = (await import('stripe')).default;
      const stripe = new Stripe('sk_test_bench_peers');
      return (req, res) =>
        void readRaw(req).then((raw) =>
          answered(res, () => stripe.webhooks.constructEvent(raw, header(req, 'stripe-signature'), STRIPE_SECRET)),
        );
    }
  }
}

async function serve(library: Library): Promise<void> {
  const lib = await libraryRoute(library);
  const server = http.createServer((req, res) => {
    if (req.url === '/lib') return lib(req, res);
    void readRaw(req).then((raw) => {
      if (!handVerified(library, req, raw)) return json(res, 401, '{"ok":false}');
      JSON.parse(raw.toString('utf8'));
      json(res, 200, '{"ok":true}');
    });
  });
  server.listen(0, '127.0.0.1', () => console.log(`PORT=${(server.address() as AddressInfo).port}`));
  // Each line on stdin: `profile` starts the CPU profiler, `profile <file>` writes what it took;
  // any other line is answered with this process's CPU time so far (`CPU=<µs>`).
  const session = new inspector.Session();
  session.connect();
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (lines: string) => {
    for (const line of lines.split('\n').slice(0, -1)) {
      if (line === 'profile') {
        session.post('Profiler.enable', () => session.post('Profiler.start', () => console.log('PROFILING')));
      } else if (line.startsWith('profile ')) {
        session.post('Profiler.stop', (_error, result) => {
          writeFileSync(line.slice('profile '.length), JSON.stringify(result.profile));
          console.log('PROFILED');
        });
      } else {
        const { user, system } = process.cpuUsage();
        console.log(`CPU=${user + system}`);
      }
    }
  });
  process.stdin.on('end', () => process.exit(0));
}

// ---- the load (this process) --------------------------------------------------------------------

interface Child {
  port: number;
  cpu(): Promise<number>;
  /** Sends a command line and waits for the next line the child prints. */
  ask(line: string): Promise<string>;
  stop(): void;
}

async function startChild(library: Library): Promise<Child> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--serve', library], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiting: ((line: string) => void)[] = [];
  let rest = '';
  child.stdout.on('data', (chunk: Buffer) => {
    rest += chunk.toString();
    for (let i = rest.indexOf('\n'); i >= 0; i = rest.indexOf('\n')) {
      const line = rest.slice(0, i);
      rest = rest.slice(i + 1);
      waiting.shift()?.(line);
    }
  });
  const nextLine = () => new Promise<string>((resolve) => waiting.push(resolve));
  const port = Number((await nextLine()).replace('PORT=', ''));
  const ask = (command: string) => {
    const line = nextLine();
    child.stdin.write(`${command}\n`);
    return line;
  };
  return {
    port,
    ask,
    cpu: async () => Number((await ask('')).replace('CPU=', '')),
    stop: () => child.stdin.end(),
  };
}

type Cannon = (o: Record<string, unknown>) => Promise<{
  requests: { total: number };
  duration: number;
  statusCodeStats: Record<string, { count: number }>;
  errors: number;
}>;
const autocannon = createRequire(import.meta.url)('autocannon') as Cannon;

interface Run {
  cpuPerRequest: number;
  rps: number;
}

/** One run against a route: server CPU µs per request and req/s; every answer must be 2xx (valid) or 4xx (forged). */
async function load(
  child: Child,
  library: Library,
  route: 'lib' | 'hand',
  forged: boolean,
  body: string,
  seconds: number,
): Promise<Run> {
  const before = await child.cpu();
  const result = await autocannon({
    url: `http://127.0.0.1:${child.port}/${route}`,
    method: 'POST',
    connections: 10,
    duration: seconds,
    headers: signedHeaders(library, body, forged),
    body,
  });
  const wrong = Object.entries(result.statusCodeStats).filter(([code]) =>
    forged ? !/^4/.test(code) : !/^2/.test(code),
  );
  if (wrong.length > 0 || result.errors > 0) {
    throw new Error(
      `${library} /${route} (${forged ? 'forged' : 'valid'}) answered ${JSON.stringify(result.statusCodeStats)}, ${result.errors} errors`,
    );
  }
  const cpu = (await child.cpu()) - before;
  return { cpuPerRequest: cpu / result.requests.total, rps: result.requests.total / result.duration };
}

/** The benchmark: hand ÷ library per library, valid and forged. */
export default async function peersBench(): Promise<BenchReport> {
  const seconds = Number(process.env.BENCH_PEERS_SECONDS ?? 1);
  const rounds = Number(process.env.BENCH_PEERS_ROUNDS ?? 5);
  const body = trackBody1k();
  const loadBefore = os.loadavg()[0]!;
  const children = Object.fromEntries(
    await Promise.all(LIBRARIES.map(async (l) => [l, await startChild(l)] as const)),
  ) as Record<Library, Child>;
  type Key = `${Library} ${'lib' | 'hand'} ${'valid' | 'forged'}`;
  const keys = LIBRARIES.flatMap((l) =>
    (['lib', 'hand'] as const).flatMap((r) =>
      (['valid', 'forged'] as const).map((k) => `${l} ${r} ${k}` satisfies Key),
    ),
  );
  const runs = Object.fromEntries(keys.map((k) => [k, [] as Run[]])) as Record<Key, Run[]>;
  const measure = (key: Key, s: number) => {
    const [library, route, kind] = key.split(' ') as [Library, 'lib' | 'hand', 'valid' | 'forged'];
    return load(children[library], library, route, kind === 'forged', body, s);
  };
  try {
    for (const key of keys) await measure(key, 0.5); // warm-up (JIT, sockets)
    for (let i = 0; i < rounds; i++) {
      for (let k = 0; k < keys.length; k++) {
        const key = keys[(i * 3 + k) % keys.length]!;
        runs[key].push(await measure(key, seconds));
      }
    }
  } finally {
    for (const child of Object.values(children)) child.stop();
  }
  const perRound = (a: Key, b: Key, pick: (r: Run) => number) =>
    median(runs[a].map((r, i) => pick(r) / pick(runs[b][i]!)));
  const cpu = (r: Run) => r.cpuPerRequest;
  const rows: BenchReport['rows'] = [];
  const valid: Record<Library, number> = {} as Record<Library, number>;
  const forged: Record<Library, number> = {} as Record<Library, number>;
  for (const l of LIBRARIES) {
    valid[l] = perRound(`${l} hand valid`, `${l} lib valid`, cpu);
    forged[l] = perRound(`${l} hand forged`, `${l} lib forged`, cpu);
    const us = (key: Key) => median(runs[key].map(cpu)).toFixed(1);
    const rps = (key: Key) => fmt(median(runs[key].map((r) => r.rps)));
    rows.push({
      library: l,
      'valid CPU µs/req hand → library': `${us(`${l} hand valid`)} → ${us(`${l} lib valid`)}`,
      'hand ÷ library (valid)': valid[l].toFixed(3),
      'req/s hand → library (valid)': `${rps(`${l} hand valid`)} → ${rps(`${l} lib valid`)}`,
      'library ÷ hand req/s (valid)': perRound(`${l} lib valid`, `${l} hand valid`, (r) => r.rps).toFixed(3),
      'forged CPU µs/req hand → library': `${us(`${l} hand forged`)} → ${us(`${l} lib forged`)}`,
      'library ÷ hand (forged)': (1 / forged[l]).toFixed(2),
    });
  }
  const bestPeer = Math.max(valid.octokit, valid.standardwebhooks, valid.svix);
  return {
    title: 'peers: each library ÷ its hand-written route, server CPU per request (node:http, 1 KB body)',
    rows,
    ratios: {
      'hookgate: hand ÷ library CPU, valid': valid.hookgate,
      'hookgate ÷ best of octokit, standardwebhooks, svix (hand ÷ library, valid)': valid.hookgate / bestPeer,
      'hookgate: hand ÷ library CPU, forged': forged.hookgate,
    },
    bars: {
      'hookgate: hand ÷ library CPU, valid': 0.72,
      'hookgate ÷ best of octokit, standardwebhooks, svix (hand ÷ library, valid)': 1.0,
      'hookgate: hand ÷ library CPU, forged': 0.67,
    },
    notes: [
      `${rounds} rounds of ${seconds} s per (library, route, valid | forged) after a 0.5 s warm-up, the order rotating; one server process per library, autocannon (10 connections) in this one`,
      'hand: the same scheme with node:crypto (createHmac, timingSafeEqual) and JSON.parse of the raw body; library: its middleware (hookgate toNodeListener, octokit createNodeMiddleware) or its verify call on the raw body (standardwebhooks verify, svix verify + JSON.parse, stripe constructEvent)',
      `load average ${loadBefore.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)}; Node ${process.version}, ${os.cpus().length} CPUs`,
    ],
  };
}

/**
 * The top frames (self time) of one route under load, profiled in its server after a warm-up (no
 * start-up in them): `node --import tsx bench/peers.ts --profile hookgate lib 8`.
 */
async function profileRoute(library: Library, route: 'lib' | 'hand', seconds: number): Promise<void> {
  const child = await startChild(library);
  const body = trackBody1k();
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'hookgate-peers-')), `${library}-${route}.cpuprofile`);
  try {
    await load(child, library, route, false, body, 2); // warm-up
    await child.ask('profile');
    const run = await load(child, library, route, false, body, seconds);
    await child.ask(`profile ${file}`);
    console.log(
      `${library} /${route}: ${run.cpuPerRequest.toFixed(1)} µs server CPU per request, ${fmt(run.rps)} req/s, load ${os.loadavg()[0]!.toFixed(1)}; top frames by self time (${file}):`,
    );
    for (const line of topFrames(JSON.parse(readFileSync(file, 'utf8')) as Profile, 25)) console.log(line);
  } finally {
    child.stop();
  }
}

const direct = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
const [mode, library, route, seconds] = process.argv.slice(2);
if (direct && mode === '--serve') await serve(library as Library);
else if (direct && mode === '--profile')
  await profileRoute(library as Library, (route ?? 'lib') as 'lib' | 'hand', Number(seconds ?? 8));
else if (direct) process.exitCode = printReport(await peersBench()) ? 0 : 1;
