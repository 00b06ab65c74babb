// The example as its README says: real signed deliveries (valid, the sender's retry, forged, breaking the
// plan) to the Express receiver, the worker's jobs, then /metrics scraped over HTTP as Prometheus does,
// and the exported trace of the valid delivery: receiver span → job → worker span.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRedisServer, type RunningRedis } from '../../test/helpers/redis-server.js';
import { startApp, type OtelExample } from './app.js';
import { sendDeliveries } from './deliveries.js';
import { startTelemetry, type ExampleTelemetry } from './telemetry.js';
import { traceTree } from './trace-tree.js';

const SECRET = 'otel-example-test-secret';
let redis: RunningRedis;
let telemetry: ExampleTelemetry;
let app: OtelExample;

beforeAll(async () => {
  redis = await startRedisServer();
  telemetry = await startTelemetry({ metricsPort: 0 });
  app = await startApp({ secret: SECRET, redis: { host: redis.host, port: redis.port }, port: 0 });
});
afterAll(async () => {
  await app?.close();
  await telemetry?.shutdown();
  await redis?.stop();
});

/** A sample's value from Prometheus's text format, by metric name and the labels it must carry. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)\{(.*)\} (\S+)$/.exec(line);
    if (match?.[1] !== name) continue;
    if (Object.entries(labels).every(([k, v]) => match[2]!.includes(`${k}="${v}"`))) return Number(match[3]);
  }
  return undefined;
}

it('counts each answer and violation on /metrics, and traces the valid delivery to the worker', async () => {
  const sent = await sendDeliveries(app.url, SECRET);
  expect(sent.map((s) => `${s.status} ${s.code}`)).toEqual([
    '200 ok',
    '200 duplicate',
    '401 invalid_signature',
    '200 ok',
  ]);
  await app.processed(2);

  const response = await fetch(telemetry.metricsUrl);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  const metrics = await response.text();
  const answers = (code: string, status: string) =>
    sample(metrics, 'hookgate_receiver_answers_total', {
      hookgate_answer_code: code,
      http_response_status_code: status,
    });
  expect(answers('ok', '200')).toBe(2);
  expect(answers('duplicate', '200')).toBe(1);
  expect(answers('invalid_signature', '401')).toBe(1);
  expect(
    sample(metrics, 'hookgate_plan_violations_total', {
      hookgate_event: 'Order Completed',
      hookgate_plan_keyword: 'type',
    }),
  ).toBe(1);
  expect(sample(metrics, 'hookgate_receiver_duration_count', { hookgate_answer_code: 'ok' })).toBe(2);
  expect(sample(metrics, 'hookgate_queue_enqueue_duration_count', {})).toBe(2);
  expect(metrics).not.toContain(SECRET);

  const spans = telemetry.spans.getFinishedSpans();
  const receive = spans.find((s) => s.name === 'hookgate.receive' && s.attributes['hookgate.dedupe'] === 'new');
  const tree = traceTree(spans, receive!.spanContext().traceId);
  expect(tree).toEqual([
    'hookgate.receive (SERVER) answer.code=ok http.response.status_code=200 message.type=track dedupe=new',
    '  hookgate.enqueue (PRODUCER)',
    '    hookgate.process (CONSUMER) message.type=track job.attempt=1 plan.violations=0',
  ]);
});

it('`pnpm example:otel` prints where /metrics is, the answers and the trace, and exits 0', async () => {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/otel/start.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', METRICS_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  expect(out).toMatch(/Prometheus: GET {2}http:\/\/127\.0\.0\.1:\d+\/metrics/);
  expect(out).toContain('duplicate (the retry): 200 duplicate');
  expect(out).toMatch(
    /hookgate\.receive \(SERVER\)[^\n]*\n\s+hookgate\.enqueue \(PRODUCER\)\n\s+hookgate\.process \(CONSUMER\)/,
  );
  expect(out).toMatch(/hookgate_receiver_answers_total\{hookgate_answer_code="invalid_signature"[^\n]*\} 1/);
  expect(code).toBe(0);
}, 60_000);
