// The emulator with `telemetry: openTelemetry(...)` on the real SDK, delivering over real HTTP to a
// receiver that fails the first attempt: one `hookgate.deliver` span per attempt (endpoint masked,
// attempt number, status, outcome, whether a retry follows), the counters, and requests that carry
// no header the sender does not send (no traceparent), even when sent from inside a span.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { createEmulator, ManualClock } from '@hookgate/emulator';
import { afterEach, expect, it } from 'vitest';
import { spansNamed, startSdk } from './support/otel-sdk.js';

const SECRET = 'whsec_otel_emulator_SECRET_c0de';
const WRITE_KEY = 'wk_otel_WRITEKEY_7f2e';
const PASSWORD = 'url-password-91ab';
const TOKEN = 'query-token-55cd';
const TRAIT = 'trait-value-jane@example.com';
const SESSION = '9F8E7D6C5B4A39281706';
const PATH_TOKEN = 'hk1a2B3c4D5e6F7g8H9';

let server: http.Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

it('reports each delivery attempt as a hookgate.deliver span and in the counters, sending no trace header', async () => {
  const sdk = startSdk();
  const received: http.IncomingHttpHeaders[] = [];
  server = http.createServer((req, res) => {
    received.push(req.headers);
    req.resume();
    req.on('end', () => {
      res.writeHead(received.length === 1 ? 503 : 200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://hook:${PASSWORD}@127.0.0.1:${port}/webhooks/${PATH_TOKEN};v=2/in;jsessionid=${SESSION}?token=${TOKEN}`;
  const emulator = createEmulator({
    clock: new ManualClock(),
    telemetry: sdk.telemetry,
    retry: { jitter: 'none', initialDelayMs: 1000 },
    responsePolicy: { honorRetryAfter: false },
    sources: [{ writeKey: WRITE_KEY, webhooks: { enabled: true, endpoints: [{ url }], sharedSecret: SECRET } }],
  });
  const app = sdk.tracerProvider.getTracer('app');
  const span = app.startSpan('test.send');
  await context.with(trace.setSpan(context.active(), span), async () => {
    emulator.identify({ userId: 'u1', traits: { email: TRAIT } });
    await emulator.drain();
  });
  span.end();
  const record = emulator.deliveries[0]!;
  expect(record.state).toBe('delivered');
  await emulator.close();

  expect(received).toHaveLength(2);
  for (const headers of received) {
    expect(Object.keys(headers).filter((h) => /^(traceparent|tracestate|baggage)$/.test(h))).toEqual([]);
  }

  const delivers = spansNamed(sdk.spans(), 'hookgate.deliver');
  expect(delivers.map((s) => s.attributes['hookgate.delivery.attempt'])).toEqual([1, 2]);
  const [failed, delivered] = delivers;
  expect(failed!.kind).toBe(SpanKind.CLIENT);
  expect(failed!.attributes).toMatchObject({
    'hookgate.message.type': 'identify',
    'http.response.status_code': 503,
    'hookgate.delivery.outcome': 'retry',
    'hookgate.delivery.retry': true,
    'error.type': 'http',
  });
  expect(failed!.status.code).toBe(SpanStatusCode.ERROR);
  expect(delivered!.attributes).toMatchObject({
    'http.response.status_code': 200,
    'hookgate.delivery.outcome': 'delivered',
    'hookgate.delivery.retry': false,
  });
  const endpoint = String(delivered!.attributes['url.full']);
  expect(endpoint).toBe(`http://hook:***@127.0.0.1:${port}/webhooks/***;v=***/in;jsessionid=***?token=***`);
  expect(endpoint).not.toContain(PASSWORD);
  expect(endpoint).not.toContain(TOKEN);

  expect(await sdk.count('hookgate.emulator.deliveries')).toBe(2);
  expect(await sdk.count('hookgate.emulator.deliveries', { 'hookgate.delivery.outcome': 'delivered' })).toBe(1);
  expect(await sdk.count('hookgate.emulator.retries')).toBe(1);
  expect(await sdk.count('hookgate.emulator.retries', { 'http.response.status_code': 200 })).toBe(1);

  const exported = await sdk.everything();
  const signature = record.signature!;
  for (const secret of [SECRET, WRITE_KEY, PASSWORD, TOKEN, TRAIT, SESSION, PATH_TOKEN, signature]) {
    expect(exported).not.toContain(secret);
  }
});

it('labels the attempt after which the emulator gives up as fail, with no retry, and counts it', async () => {
  const sdk = startSdk();
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(503).end());
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const emulator = createEmulator({
    clock: new ManualClock(),
    telemetry: sdk.telemetry,
    // Rounds at 0, 1 s and 3 s; a fourth (7 s) would start past the 5 s window: given up after round 3.
    retry: { jitter: 'none', initialDelayMs: 1000, windowMs: 5000 },
    responsePolicy: { honorRetryAfter: false },
    sources: [{ writeKey: WRITE_KEY, webhooks: { enabled: true, endpoints: [{ url: `http://127.0.0.1:${port}/` }] } }],
  });
  emulator.identify({ userId: 'u1' });
  await emulator.drain();
  await emulator.close();
  expect(emulator.deliveries[0]!.state).toBe('failed');

  const delivers = spansNamed(sdk.spans(), 'hookgate.deliver');
  expect(
    delivers.map((s) => [s.attributes['hookgate.delivery.outcome'], s.attributes['hookgate.delivery.retry']]),
  ).toEqual([
    ['retry', true],
    ['retry', true],
    ['fail', false],
  ]);
  expect(await sdk.count('hookgate.emulator.deliveries', { 'hookgate.delivery.outcome': 'fail' })).toBe(1);
  expect(await sdk.count('hookgate.emulator.deliveries', { 'hookgate.delivery.outcome': 'retry' })).toBe(2);
});
