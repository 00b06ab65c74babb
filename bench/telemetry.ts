// Telemetry's cost (issue 39's guardrail: with `openTelemetry()`, an always-on sampler and an
// in-memory exporter, at most 1.3× the receiver's CPU per request without it). One build of
// @hookgate/core (the sources), two receivers side by side in one run, interleaved rounds, medians of
// CPU time per request:
//   in-process: receiver.handle() of a valid 1 KB track (dedupe in memory, one handler) and a forged one;
//   http:       toNodeListener of each receiver on one node:http server in a child process, autocannon
//               (10 connections) from this one, server CPU per request.
// The "without telemetry" guardrail (≥ 0.98 of the build before) is bench/receiver-ab.ts, run on the two builds.
//   node --import tsx bench/telemetry.ts            (TELEMETRY_ROUNDS, default 10; TELEMETRY_SECONDS per route, default 2)
//   node --cpu-prof --import tsx bench/telemetry.ts --in-process-only   (a profile of the in-process rounds)
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { AlwaysOnSampler, BatchSpanProcessor, InMemorySpanExporter, TracerProvider } from '@opentelemetry/sdk-trace';
import { createReceiver, fixture, toNodeListener, type ReceiverOptions, type Telemetry } from '@hookgate/core';
import { openTelemetry } from '@hookgate/otel';
import { answerCpuReadings, cpuPerCall, startCpuChild } from './cpu-child.js';
import { fillTo1k } from './bodies.js';
import { median } from './lib.js';

const SECRET = 'whsec_bench_telemetry';
const rounds = Number(process.env.TELEMETRY_ROUNDS ?? 10);
const seconds = Number(process.env.TELEMETRY_SECONDS ?? 2);

class Reader extends MetricReader {
  protected override onShutdown = () => Promise.resolve();
  protected override onForceFlush = () => Promise.resolve();
}

/**
 * The real SDK as the issue sets it: always-on sampler, in-memory exporter (emptied as it fills), a
 * metric reader; spans through the BatchSpanProcessor, as the Node SDK and production set-ups export
 * them (the SimpleSpanProcessor, one export per span, is for tests and debugging).
 */
function sdkTelemetry(): Telemetry {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const exporter = new InMemorySpanExporter();
  const processor = new BatchSpanProcessor({ exporter });
  const tracerProvider = new TracerProvider({ sampler: new AlwaysOnSampler(), spanProcessors: [processor] });
  setInterval(() => exporter.reset(), 200).unref();
  const meterProvider = new MeterProvider({ readers: [new Reader()] });
  return openTelemetry({ tracerProvider, meterProvider });
}

function body1k(): Buffer {
  return Buffer.from(
    fillTo1k({ ...fixture('track'), messageId: 'tm-1', properties: { orderId: 'o-7', products: [] } }),
  );
}

// Dedupe off: every request runs the whole pipeline (with it on, the same body would be a duplicate).
const options = (telemetry?: Telemetry): ReceiverOptions => ({
  secret: SECRET,
  dedupe: false,
  logger: false,
  onMessage: () => {},
  ...(telemetry ? { telemetry } : {}),
});

/** Interleaved rounds (the order rotates): the median of each, and of with ÷ without per round. */
async function interleaved(measures: { without: () => Promise<number>; with: () => Promise<number> }): Promise<string> {
  const got: Record<string, number[]> = { without: [], with: [] };
  const ratios: number[] = [];
  await measures.without();
  await measures.with();
  for (let i = 0; i < rounds; i++) {
    const order = i % 2 === 0 ? (['without', 'with'] as const) : (['with', 'without'] as const);
    const round: Record<string, number> = {};
    for (const name of order) got[name]!.push((round[name] = await measures[name]()));
    ratios.push(round.with! / round.without!);
  }
  return (
    `without ${median(got.without!).toFixed(1)}, with ${median(got.with!).toFixed(1)} µs/req; ` +
    `with ÷ without ${median(ratios).toFixed(3)} (rounds ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`
  );
}

async function inProcess(raw: Buffer): Promise<void> {
  const telemetry = sdkTelemetry();
  for (const kind of ['valid', 'forged'] as const) {
    const signature = createHmac('sha1', kind === 'valid' ? SECRET : 'not-the-secret')
      .update(raw)
      .digest('hex');
    const headers = { 'content-type': 'application/json', 'x-signature': signature };
    const measure = (receiverOptions: ReceiverOptions) => {
      const receiver = createReceiver(receiverOptions);
      return () => cpuPerCall(() => receiver.handle({ method: 'POST', headers, rawBody: raw }));
    };
    console.log(
      `in-process, ${kind} 1 KB: ${await interleaved({ without: measure(options()), with: measure(options(telemetry)) })}`,
    );
  }
}

/** The child process: /without and /with on one server. */
function serve(): void {
  const telemetry = sdkTelemetry();
  const routes: Record<string, ReturnType<typeof toNodeListener>> = {
    '/without': toNodeListener(createReceiver(options())),
    '/with': toNodeListener(createReceiver(options(telemetry))),
  };
  const server = http.createServer((req, res) => void routes[req.url ?? '']?.(req, res));
  server.listen(0, '127.0.0.1', () => console.log(`PORT=${(server.address() as AddressInfo).port}`));
  answerCpuReadings();
}

async function overHttp(raw: Buffer): Promise<void> {
  const child = await startCpuChild(fileURLToPath(import.meta.url), ['--serve']);
  const signature = createHmac('sha1', SECRET).update(raw).digest('hex');
  const headers = { 'content-type': 'application/json', 'x-signature': signature };
  const route = (path: string) => () => child.cpuPerRequest(path, raw, headers, seconds);
  try {
    console.log(
      `http, valid 1 KB (server CPU): ${await interleaved({ without: route('/without'), with: route('/with') })}`,
    );
  } finally {
    child.kill();
  }
}

/** `--profile-only`: the receiver with telemetry alone, valid requests for about 3 s (for `node --cpu-prof`). */
async function profileOnly(raw: Buffer): Promise<void> {
  const signature = createHmac('sha1', SECRET).update(raw).digest('hex');
  const headers = { 'content-type': 'application/json', 'x-signature': signature };
  const receiver = createReceiver(options(sdkTelemetry()));
  const until = performance.now() + 3000;
  while (performance.now() < until) await cpuPerCall(() => receiver.handle({ method: 'POST', headers, rawBody: raw }));
}

if (process.argv.includes('--serve')) serve();
else if (process.argv.includes('--profile-only')) await profileOnly(body1k());
else {
  const raw = body1k();
  await inProcess(raw);
  if (!process.argv.includes('--in-process-only')) await overHttp(raw);
  process.exit(0);
}
