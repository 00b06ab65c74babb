// Receiver A/B (issue 28, item 7: a change is kept only with a gain of 10 % or more): two builds of
// @hookgate/core side by side in one run, interleaved rounds, medians; CPU time per request, which a
// shared machine disturbs less than requests per second.
//   in-process: receiver.handle() of a valid and a forged 1 KB request, awaited in batches of 100;
//   http:       toNodeListener of each build and a hand-written route (raw body, HMAC-SHA1,
//               JSON.parse, 200) on one node:http server in a child process, autocannon (10
//               connections) from this one, server CPU per request.
// Build A (e.g. before a change) and keep its dist/ under packages/core/node_modules/ (so that its
// imports resolve): `cp -r packages/core/dist packages/core/node_modules/.ab-before`, make the change,
// `npx -y pnpm@10 --filter @hookgate/core build`, then
//   node --import tsx bench/receiver-ab.ts packages/core/node_modules/.ab-before packages/core/dist
// Settings: AB_ROUNDS (default 12), AB_SECONDS (HTTP seconds per route per round, default 2).
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as CoreModule from '@hookgate/core';
import { answerCpuReadings, cpuPerCall, startCpuChild } from './cpu-child.js';
import { fillTo1k } from './bodies.js';
import { median } from './lib.js';

type Core = typeof CoreModule;
const SECRET = 'whsec_bench_ab';
const rounds = Number(process.env.AB_ROUNDS ?? 12);
const seconds = Number(process.env.AB_SECONDS ?? 2);

const load = (dir: string) => import(pathToFileURL(path.resolve(dir, 'node/index.js')).href) as Promise<Core>;

function body1k(core: Core): Buffer {
  return Buffer.from(
    fillTo1k({ ...core.fixture('track'), messageId: 'ab-1', properties: { orderId: 'o-7', products: [] } }),
  );
}

function handChecked(raw: Buffer, header: unknown): boolean {
  const given = Buffer.from(typeof header === 'string' ? header : '', 'hex');
  const digest = createHmac('sha1', SECRET).update(raw).digest();
  return given.length === digest.length && timingSafeEqual(given, digest);
}

/** Interleaved rounds of named measures (the order rotates): the median of each, and of B ÷ A per round. */
async function interleaved(measures: Record<string, () => Promise<number>>): Promise<string> {
  const names = Object.keys(measures);
  const got: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  const ratios: number[] = [];
  for (const name of names) await measures[name]!(); // warm-up
  for (let i = 0; i < rounds; i++) {
    const round: Record<string, number> = {};
    for (const name of [...names.slice(i % names.length), ...names.slice(0, i % names.length)])
      got[name]!.push((round[name] = await measures[name]!()));
    ratios.push(round.B! / round.A!);
  }
  const each = names.map((name) => `${name} ${median(got[name]!).toFixed(1)}`).join(', ');
  return `${each} µs/req; B ÷ A ${median(ratios).toFixed(3)} (rounds ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`;
}

async function inProcess(a: Core, b: Core, raw: Buffer): Promise<void> {
  for (const kind of ['valid', 'forged'] as const) {
    const signature = createHmac('sha1', kind === 'valid' ? SECRET : 'not-the-secret')
      .update(raw)
      .digest('hex');
    const headers = { 'content-type': 'application/json', 'x-signature': signature };
    const handle = (core: Core) => {
      const receiver = core.createReceiver({ secret: SECRET, dedupe: false, logger: false, onMessage: () => {} });
      return () => cpuPerCall(() => receiver.handle({ method: 'POST', headers, rawBody: raw }));
    };
    const hand = () =>
      cpuPerCall(() => (handChecked(raw, signature) ? (JSON.parse(raw.toString('utf8')) as unknown) : 401));
    console.log(`in-process, ${kind} 1 KB: ${await interleaved({ A: handle(a), B: handle(b), hand })}`);
  }
}

/** The child process: one server with a route per build (/A, /B) and the hand-written one (/hand). */
async function serve(dirA: string, dirB: string): Promise<void> {
  const options = { secret: SECRET, dedupe: false as const, logger: false as const, onMessage: () => {} };
  const [a, b] = [await load(dirA), await load(dirB)];
  const routes = {
    '/A': a.toNodeListener(a.createReceiver(options)),
    '/B': b.toNodeListener(b.createReceiver(options)),
  };
  const server = http.createServer((req, res) => {
    const route = routes[req.url as keyof typeof routes] as ((...args: unknown[]) => Promise<void>) | undefined;
    if (route) return void route(req, res);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const ok = handChecked(raw, req.headers['x-signature']);
      if (ok) JSON.parse(raw.toString('utf8'));
      const text = ok ? '{"ok":true}' : '{"ok":false}';
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json', 'content-length': String(text.length) });
      res.end(text);
    });
  });
  server.listen(0, '127.0.0.1', () => console.log(`PORT=${(server.address() as AddressInfo).port}`));
  answerCpuReadings();
}

async function overHttp(dirA: string, dirB: string, raw: Buffer): Promise<void> {
  const child = await startCpuChild(fileURLToPath(import.meta.url), ['--serve', dirA, dirB]);
  const signature = createHmac('sha1', SECRET).update(raw).digest('hex');
  const headers = { 'content-type': 'application/json', 'x-signature': signature };
  const route = (name: string) => () => child.cpuPerRequest(`/${name}`, raw, headers, seconds);
  try {
    const loadBefore = os.loadavg()[0]!.toFixed(1);
    const line = await interleaved({ A: route('A'), B: route('B'), hand: route('hand') });
    console.log(
      `HTTP (toNodeListener), valid 1 KB, server CPU: ${line}; load ${loadBefore} → ${os.loadavg()[0]!.toFixed(1)}`,
    );
  } finally {
    child.kill();
  }
}

const args = process.argv.slice(2);
if (args[0] === '--serve') await serve(args[1]!, args[2]!);
else {
  const [dirA, dirB] = args;
  if (!dirA || !dirB) throw new Error('usage: node --import tsx bench/receiver-ab.ts <dist A> <dist B>');
  const [a, b] = [await load(dirA), await load(dirB)];
  const raw = body1k(a);
  await inProcess(a, b, raw);
  await overHttp(dirA, dirB, raw);
}
