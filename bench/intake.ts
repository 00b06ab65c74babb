// Intake throughput: batches of 100 track calls (about 30 KB) posted by autocannon to the emulator's
// intake (webhooks disabled on the source, so nothing is sent on) against a bare node:http server
// that only reads and JSON.parses the same body. Each server runs in its own child process, started
// fresh for every round; the two alternate, and the figure is the median of the per-round ratios.
//
//   node --import tsx bench/intake.ts [--rounds 3] [--seconds 3] [--connections 8]
//
// Bar: the intake keeps at least 0.5 of the bare server's requests per second.
//
// For diagnosis only (no bar), a third server runs the intake's own front end (routing, write key,
// body limits, JSON, validation, merging) over an engine whose ingest does nothing: the gap between
// it and the real intake is the delivery engine's per-call cost.

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { fmt, median, printReport, type BenchReport } from './lib.js';

/** The parts of autocannon (which ships no types) this benchmark uses. */
type Autocannon = (options: {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  connections: number;
  duration: number;
}) => Promise<{ requests: { average: number }; latency: { p50: number }; non2xx: number; errors: number }>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const THIS_FILE = fileURLToPath(import.meta.url);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WRITE_KEY = 'bench_intake';
const BAR = 0.5;

type ServerKind = 'intake' | 'bare' | 'front';

/** The benchmark's body: 100 track calls shaped like a real client's, about 30 KB. */
export function batchBody(): string {
  const batch = Array.from({ length: 100 }, (_, i) => ({
    type: 'track',
    userId: `user_${1000 + i}`,
    event: 'Order Completed',
    messageId: `bench-${i.toString().padStart(4, '0')}-6f1c2a9e-4b7d-4e0f-9a51-2c8d7e3b1f40`,
    timestamp: '2026-11-21T12:00:00.000Z',
    properties: { orderId: `ord_${i}`, revenue: 42.5, currency: 'EUR', sku: 'SKU-12345', coupon: 'WINTER' },
    context: { ip: '203.0.113.9', locale: 'en-GB' },
  }));
  return JSON.stringify({
    batch,
    writeKey: WRITE_KEY,
    sentAt: '2026-11-21T12:00:01.000Z',
    context: { library: { name: 'bench', version: '1.0.0' } },
  });
}

/** Child mode: serve one kind on 127.0.0.1:0 and print the port. */
async function serve(kind: ServerKind): Promise<void> {
  let server: http.Server;
  if (kind === 'bare') {
    server = http.createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        JSON.parse(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end('{"success":true}');
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  } else if (kind === 'front') {
    assertBuilt();
    const { listenIntake } = await import('@hookgate/emulator');
    let ingested = 0;
    const record = { id: 'dlv_0' };
    const engine = {
      clock: { now: () => Date.now() },
      hasSource: (key: string) => key === WRITE_KEY,
      intakeSink: {
        accept: () => {
          ingested++;
          return record;
        },
        refuse: () => record,
      },
      deliveries: [],
    } as unknown as Parameters<typeof listenIntake>[0];
    server = (await listenIntake(engine, { port: 0 })).server;
    server.on('close', () => void ingested);
  } else {
    assertBuilt();
    const { createEmulator } = await import('@hookgate/emulator');
    const emulator = createEmulator({
      sources: [
        { writeKey: WRITE_KEY, webhooks: { enabled: false, endpoints: [{ url: 'http://127.0.0.1:9/unused' }] } },
      ],
      // The same body is posted over and over: without this, every call after the first round would be a duplicate.
      dedupe: false,
    });
    const intake = await emulator.listen({ port: 0 });
    server = intake.server;
  }
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
}

/** The servers measure the built emulator (dist/), what users run; stop if tsx mapped it to the sources. */
function assertBuilt(): void {
  const file = fileURLToPath(import.meta.resolve('@hookgate/emulator'));
  if (!file.includes('/dist/'))
    throw new Error(`@hookgate/emulator resolved to ${file}, not to its build: run pnpm build first`);
}

async function startChild(kind: ServerKind): Promise<{ url: string; child: ChildProcess }> {
  // The servers load the built packages (dist/, what users run), not the sources the root tsconfig maps.
  const child = spawn(process.execPath, ['--import', 'tsx', THIS_FILE, `--serve=${kind}`], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      TSX_TSCONFIG_PATH: fileURLToPath(new URL('../test/runtimes/tsconfig.dist.json', import.meta.url)),
    },
  });
  const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
  return { url: `http://127.0.0.1:${Number(chunk.toString().trim())}`, child };
}

async function load(url: string, body: string, seconds: number, connections: number) {
  const result = await autocannon({
    url: `${url}/v1/batch`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${WRITE_KEY}:`).toString('base64')}`,
    },
    body,
    connections,
    duration: seconds,
  });
  return { rps: result.requests.average, non2xx: result.non2xx, errors: result.errors, latencyP50: result.latency.p50 };
}

async function round(kind: ServerKind, body: string, seconds: number, connections: number) {
  const { url, child } = await startChild(kind);
  try {
    await load(url, body, 1, connections); // warm-up: JIT, sockets
    return await load(url, body, seconds, connections);
  } finally {
    child.kill();
    await once(child, 'exit');
  }
}

/** Options of the intake benchmark. */
export interface IntakeBenchOptions {
  rounds?: number;
  seconds?: number;
  connections?: number;
}

/** Runs the benchmark and returns its report (see the file's header). */
export default async function intakeBench(options: IntakeBenchOptions = {}): Promise<BenchReport> {
  const { rounds = 3, seconds = 3, connections = 8 } = options;
  const body = batchBody();
  const rows: BenchReport['rows'] = [];
  const ratios: number[] = [];
  const intakeRps: number[] = [];
  const bareRps: number[] = [];
  const frontRatios: number[] = [];
  let failures = 0;
  for (let i = 0; i < rounds; i++) {
    const order: ServerKind[] = i % 2 === 0 ? ['intake', 'bare', 'front'] : ['front', 'bare', 'intake'];
    const got: Partial<Record<ServerKind, Awaited<ReturnType<typeof load>>>> = {};
    for (const kind of order) got[kind] = await round(kind, body, seconds, connections);
    const a = got.intake!;
    const b = got.bare!;
    const f = got.front!;
    failures += a.non2xx + a.errors + b.non2xx + b.errors + f.non2xx + f.errors;
    frontRatios.push(f.rps / b.rps);
    intakeRps.push(a.rps);
    bareRps.push(b.rps);
    ratios.push(a.rps / b.rps);
    rows.push({
      round: i + 1,
      'intake req/s': fmt(a.rps),
      'bare req/s': fmt(b.rps),
      'front end only req/s': fmt(f.rps),
      'intake calls/s': fmt(a.rps * 100),
      'intake p50 ms': a.latencyP50,
      'bare p50 ms': b.latencyP50,
      ratio: fmt(a.rps / b.rps, 2),
    });
  }
  const notes = [
    `body ${fmt(Buffer.byteLength(body))} bytes (100 track calls), ${connections} connections, ${seconds} s per measure after 1 s warm-up, fresh child process per measure`,
    `medians: intake ${fmt(median(intakeRps))} req/s, bare ${fmt(median(bareRps))} req/s`,
    `diagnosis (no bar): the intake's front end over a no-op engine keeps ${fmt(median(frontRatios), 2)} of the bare server's req/s; the rest of the gap is the delivery engine's ingest`,
  ];
  if (failures > 0) notes.push(`FAILED REQUESTS: ${failures} non-2xx answers or errors (the figure is not valid)`);
  return {
    title: 'intake (batches of 100 track calls, webhooks disabled) vs bare node:http read + JSON.parse',
    rows,
    ratios: { 'intake req/s / bare req/s': failures > 0 ? 0 : median(ratios) },
    bars: { 'intake req/s / bare req/s': BAR },
    notes,
  };
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const { values } = parseArgs({
    options: {
      serve: { type: 'string' },
      rounds: { type: 'string' },
      seconds: { type: 'string' },
      connections: { type: 'string' },
    },
    strict: true,
  });
  if (values.serve === 'intake' || values.serve === 'bare' || values.serve === 'front') {
    await serve(values.serve);
  } else if (values.serve !== undefined) {
    console.error(`--serve must be intake, bare or front (got ${values.serve})`);
    process.exit(2);
  } else {
    const report = await intakeBench({
      rounds: values.rounds ? Number(values.rounds) : undefined,
      seconds: values.seconds ? Number(values.seconds) : undefined,
      connections: values.connections ? Number(values.connections) : undefined,
    });
    process.exitCode = printReport(report) ? 0 : 1;
  }
}
