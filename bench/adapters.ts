// Adapters benchmark (issue 3): requests per second of a hookgate route against the same framework's
// plain route that parses JSON and answers 200, for Express 5, Fastify 5 and Hono (on Node).
// autocannon, 10 connections, 127.0.0.1, a 1 KB signed track message. The servers run in a child
// process (one core) and autocannon in this one (the other core); the routes take turns in rounds
// (the order rotates) so that machine drift hits them alike; the figure is the median of per-round
// ratios. A third route per framework is the reference for what the protocol itself costs: the plain
// route plus a hand-written HMAC-SHA1 check of the raw body (createHmac + timingSafeEqual, no hookgate).
// Bar (issues 28, 45): hand-written ÷ hookgate server CPU per request ≥ 0.85 on Express, Fastify and
// Hono, ≥ 0.75 on core's node listener (whose hand-written route is bare node:http).
//   Run alone: node --import tsx bench/adapters.ts
//   Settings: BENCH_ADAPTERS_SECONDS (per run, default 2), BENCH_ADAPTERS_ROUNDS (default 5),
//   BENCH_ADAPTERS_FRAMEWORKS (a comma list, default core,express,fastify,hono).
// `core` is core's node listener (toNodeListener) on node:http, against a hand-written node:http
// verify-and-parse route and Octokit's createNodeMiddleware (@octokit/webhooks) on the same server:
// also a bar of ≥ 1.0 of Octokit's requests per second. Octokit verifies HMAC-SHA256 of
// `X-Hub-Signature-256` (GitHub's scheme) where hookgate verifies HMAC-SHA1 (the sender's); the body
// is the same 1 KB; both read the body off the stream, verify, parse JSON and run a no-op handler.
// Hono's plain and hand-written routes read the body straight off the Node request
// (c.env.incoming), as hookgate's middleware does on @hono/node-server, so all three compare alike.
import { spawn } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sign } from '@hookgate/core';
import { trackBody1k } from './bodies.js';
import { fmt, median, printReport, type BenchReport } from './lib.js';

const SECRET = 'whsec_bench_adapters_61d0';
const FRAMEWORKS = ['core', 'express', 'fastify', 'hono'] as const;
type Framework = (typeof FRAMEWORKS)[number];
const BAR = 0.85;
/** Core's node listener: its hand-written route is bare node:http, so the protocol's own work weighs more (issue 45). */
const CORE_BAR = 0.75;

/**
 * The hand-written check a user would put in a route without hookgate: HMAC-SHA1 of the raw bytes
 * with node:crypto, compared in constant time with the hex X-Signature.
 */
function handVerified(raw: Buffer, header: string | string[] | undefined): boolean {
  const given = Buffer.from(typeof header === 'string' ? header : '', 'hex');
  const digest = createHmac('sha1', SECRET).update(raw).digest();
  return given.length === digest.length && timingSafeEqual(given, digest);
}

// ---- the servers (child process) ----------------------------------------------------------------

/** Starts, per framework, one app with `/plain`, `/hand` and `/webhooks`, and prints their base URLs as JSON. */
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

  const http = await import('node:http');
  const { createReceiver, toNodeListener } = await import('@hookgate/core');
  const { Webhooks, createNodeMiddleware } = await import('@octokit/webhooks');
  const readRaw = (req: IncomingMessage) =>
    new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
      req.on('error', reject);
    });
  const json = (res: ServerResponse, status: number, text: string) =>
    void res
      .writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) })
      .end(text);
  const coreListener = toNodeListener(createReceiver(options));
  const webhooks = new Webhooks({ secret: SECRET });
  webhooks.on('push', () => {});
  const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
  const octokit = createNodeMiddleware(webhooks, { path: '/octokit', log: quiet });
  const coreServer = http.createServer((req, res) => {
    switch (req.url) {
      case '/plain':
        void readRaw(req).then((raw) => {
          JSON.parse(raw.toString('utf8'));
          json(res, 200, '{"ok":true}');
        });
        return;
      case '/hand':
        void readRaw(req).then((raw) => {
          if (!handVerified(raw, req.headers['x-signature'])) return json(res, 401, '{"ok":false}');
          JSON.parse(raw.toString('utf8'));
          json(res, 200, '{"ok":true}');
        });
        return;
      case '/webhooks':
        void coreListener(req, res);
        return;
      case '/octokit':
        void octokit(req, res);
        return;
      default:
        json(res, 404, '{}');
    }
  });
  await listen('core', coreServer);

  const ex = express();
  ex.post('/plain', express.json(), (_req, res) => void res.json({ ok: true }));
  ex.post('/hand', express.raw({ type: 'application/json' }), (req, res) => {
    if (!handVerified(req.body as Buffer, req.headers['x-signature'])) return void res.status(401).json({ ok: false });
    JSON.parse((req.body as Buffer).toString('utf8'));
    res.json({ ok: true });
  });
  ex.post('/webhooks', expressHookgate(options));
  await listen('express', ex.listen(0, '127.0.0.1'));

  const fa = Fastify();
  fa.post('/plain', async () => ({ ok: true }));
  await fa.register(async (scope) => {
    // Keeps the raw bytes and still parses with Fastify's own JSON parser, in this scope only.
    const parseJson = scope.getDefaultJsonParser('error', 'error');
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, raw, done) => {
      (request as unknown as { rawBody: Buffer }).rawBody = raw as Buffer;
      // Fastify's default JSON parser answers through `done`; its type also allows an async parser.
      void parseJson(request, (raw as Buffer).toString('utf8'), done);
    });
    scope.post('/hand', async (request, reply) => {
      if (!handVerified((request as unknown as { rawBody: Buffer }).rawBody, request.headers['x-signature']))
        return reply.code(401).send({ ok: false });
      return { ok: true };
    });
  });
  await fa.register(fastifyHookgate, { ...options, path: '/webhooks' });
  await fa.listen({ host: '127.0.0.1', port: 0 });
  urls.fastify = `http://127.0.0.1:${(fa.server.address() as AddressInfo).port}`;

  // Like with like: the plain and hand-written routes read the body straight off the Node request,
  // as hookgate's middleware does on @hono/node-server (through c.req they would build a Web Request).
  const honoRaw = (c: { env: unknown }) => readRaw((c.env as { incoming: IncomingMessage }).incoming);
  const ho = new Hono();
  ho.post('/plain', async (c) => {
    JSON.parse((await honoRaw(c)).toString('utf8'));
    return c.json({ ok: true });
  });
  ho.post('/hand', async (c) => {
    const raw = await honoRaw(c);
    if (!handVerified(raw, (c.env as { incoming: IncomingMessage }).incoming.headers['x-signature']))
      return c.json({ ok: false }, 401);
    JSON.parse(raw.toString('utf8'));
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
  // A normal exit when the parent is done (bench/receiver-profile.ts reads the --cpu-prof file it writes then).
  process.stdin.on('end', () => process.exit(0));
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

/** Octokit's headers for the same body: GitHub's event name, delivery id and HMAC-SHA256 signature. */
function octokitHeaders(body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-github-event': 'push',
    'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958',
    'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
  };
}

async function load(servers: Servers, url: string, body: string, seconds: number): Promise<Run> {
  const cpuBefore = await servers.cpu();
  const headers = url.endsWith('/octokit')
    ? octokitHeaders(body)
    : { 'content-type': 'application/json', 'user-agent': 'Segment.io/1.0', 'x-signature': sign(body, SECRET) };
  const result = await autocannon({
    url,
    method: 'POST',
    connections: 10,
    duration: seconds,
    headers,
    body,
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(
      `bench setup: ${url} answered ${result.non2xx} non-2xx and ${result.errors} errors; the figures would be meaningless.`,
    );
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
    env: {
      ...process.env,
      TSX_TSCONFIG_PATH: fileURLToPath(new URL('../test/runtimes/tsconfig.dist.json', import.meta.url)),
    },
  });
  let out = '';
  const urls = await new Promise<Record<Framework, string>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bench servers did not start:\n${out}`)), 30_000);
    child.stdout.on('data', (c: Buffer) => {
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
  child.stdout.on('data', (c: Buffer) => {
    const m = /CPU=(\d+)/.exec(c.toString());
    if (m && cpuWaiter) cpuWaiter(Number(m[1]));
  });
  return {
    urls,
    cpu: () =>
      new Promise<number>((resolve) => {
        cpuWaiter = resolve;
        child.stdin.write('cpu\n');
      }),
    stop: async () => {
      child.stdin.end();
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** The benchmark: one report, a ratio per framework. */
export default async function adaptersBench(): Promise<BenchReport> {
  const seconds = Number(process.env.BENCH_ADAPTERS_SECONDS ?? 2);
  const rounds = Number(process.env.BENCH_ADAPTERS_ROUNDS ?? 5);
  const body = trackBody1k();
  const servers = await startServers();
  const { urls } = servers;
  const rows: BenchReport['rows'] = [];
  const ratios: Record<string, number> = {};
  const bars: Record<string, number> = {};
  try {
    const only = process.env.BENCH_ADAPTERS_FRAMEWORKS?.split(',').map((f) => f.trim());
    for (const fw of FRAMEWORKS.filter((f) => !only || only.includes(f))) {
      const routes: Record<string, string> = {
        plain: `${urls[fw]}/plain`,
        hand: `${urls[fw]}/hand`,
        hookgate: `${urls[fw]}/webhooks`,
      };
      if (fw === 'core') routes.octokit = `${urls[fw]}/octokit`;
      const order = Object.keys(routes);
      for (const route of order) await load(servers, routes[route]!, body, 1); // warm up (JIT, sockets)
      const runs: Record<string, Run[]> = Object.fromEntries(order.map((r) => [r, [] as Run[]]));
      for (let i = 0; i < rounds; i++) {
        // The order rotates, so no route always runs first (or right after the same one).
        for (let k = 0; k < order.length; k++) {
          const route = order[(i + k) % order.length]!;
          runs[route]!.push(await load(servers, routes[route]!, body, seconds));
        }
      }
      const ratioOf = (a: Run[], b: Run[]) => a.map((r, i) => r.rps / b[i]!.rps);
      const plain = runs.plain!;
      const hand = runs.hand!;
      const hook = runs.hookgate!;
      const perRound = ratioOf(hook, plain);
      const handPerRound = ratioOf(hand, plain);
      const cpuPerRound = plain.map((p, i) => p.cpuPerRequest / hook[i]!.cpuPerRequest);
      const cpu = (r: Run[]) => median(r.map((x) => x.cpuPerRequest)).toFixed(1);
      const label = fw === 'hono' ? 'hono (Node)' : fw === 'core' ? "core's node listener (node:http)" : fw;
      // The bar of every route (issue 28): hand-written ÷ hookgate server CPU per request ≥ 0.85, read from
      // /proc (steadier than requests/s on a shared machine). Core's node listener also keeps Octokit's pace.
      const handCpu = hand.map((h, i) => h.cpuPerRequest / hook[i]!.cpuPerRequest);
      ratios[`${fw}: hand-written ÷ hookgate, server CPU per request`] = median(handCpu);
      bars[`${fw}: hand-written ÷ hookgate, server CPU per request`] = fw === 'core' ? CORE_BAR : BAR;
      if (fw === 'core') {
        const octo = runs.octokit!;
        ratios[`${fw}: hookgate / Octokit createNodeMiddleware (req/s)`] = median(ratioOf(hook, octo));
        bars[`${fw}: hookgate / Octokit createNodeMiddleware (req/s)`] = 1.0;
      }
      rows.push({
        framework: label,
        'plain req/s': fmt(median(plain.map((r) => r.rps))),
        'hookgate req/s': fmt(median(hook.map((r) => r.rps))),
        'median ratio (req/s)': median(perRound).toFixed(3),
        'per-round ratios': perRound.map((r) => r.toFixed(2)).join(' '),
        'hand-written HMAC / plain': median(handPerRound).toFixed(3),
        'hookgate / hand-written': median(ratioOf(hook, hand)).toFixed(3),
        'hookgate / hand-written per round': ratioOf(hook, hand)
          .map((r) => r.toFixed(2))
          .join(' '),
        'hookgate / Octokit': runs.octokit ? median(ratioOf(hook, runs.octokit)).toFixed(3) : '—',
        'server CPU µs/req plain → hand → hookgate': `${cpu(plain)} → ${cpu(hand)} → ${cpu(hook)}${runs.octokit ? ` (Octokit ${cpu(runs.octokit)})` : ''}`,
        'CPU ratio (plain/hookgate)': median(cpuPerRound).toFixed(3),
        'CPU ratio (hand/hookgate)': median(handCpu).toFixed(3),
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
      `${rounds} rounds of ${seconds} s per route (the order rotates) after a 1 s warm-up; servers in a child process, autocannon in this one`,
      'hand-written HMAC: the plain route plus createHmac("sha1") over the raw bytes and timingSafeEqual, no hookgate — what the signature alone costs in that framework',
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
