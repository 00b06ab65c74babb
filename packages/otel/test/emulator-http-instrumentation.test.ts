// The emulator under OpenTelemetry's own HTTP instrumentation (`@opentelemetry/instrumentation-http`,
// as `getNodeAutoInstrumentations()` loads it): the instrumentation copies a request's headers into an
// object to add `traceparent`, so a flat header list went out as names "0", "1", … and a real receiver
// answered 415. Each delivery must reach the receiver with its headers, and the emulator record it
// delivered. The instrumentation is disabled afterwards: it patches `node:http` for the whole process.
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { propagation } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { createReceiver, toNodeListener } from '@hookgate/core';
import { createEmulator, ManualClock } from '@hookgate/emulator';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spansNamed, startSdk } from './support/otel-sdk.js';

const SECRET = 'whsec_otel_instrumented_SECRET_9a1f';
const WRITE_KEY = 'wk_otel_instrumented_3c4d';

const sdk = startSdk();
const instrumentation = new HttpInstrumentation();
let server: http.Server;
let url: string;
const received: string[][] = [];

beforeAll(async () => {
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  instrumentation.setTracerProvider(sdk.tracerProvider);
  instrumentation.enable();
  // The instrumentation patches `node:http` when it is required after `enable()` (the module object is
  // the one the emulator's ESM import reads `request` from).
  createRequire(import.meta.url)('node:http');
  const listener = toNodeListener(createReceiver({ secret: SECRET, onMessage() {} }));
  server = http.createServer((req, res) => {
    received.push(req.rawHeaders);
    void listener(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
});

afterAll(async () => {
  instrumentation.disable();
  propagation.disable();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

it('delivers with its own header names while the HTTP instrumentation adds traceparent', async () => {
  const emulator = createEmulator({
    clock: new ManualClock(),
    sources: [{ writeKey: WRITE_KEY, webhooks: { enabled: true, endpoints: [{ url }], sharedSecret: SECRET } }],
  });
  emulator.track({ userId: 'u1', event: 'Order Completed', properties: { total: 3 } });
  await emulator.drain();
  await emulator.close();

  const [record] = emulator.deliveries;
  expect(record?.attempts.map((a) => a.status)).toEqual([200]);
  expect(record?.state).toBe('delivered');
  expect(received).toHaveLength(1);
  const names = received[0]!.filter((_, i) => i % 2 === 0);
  expect(names.filter((name) => /^\d+$/.test(name))).toEqual([]);
  expect(names.slice(0, 6)).toEqual([
    'User-Agent',
    'Content-Type',
    'Content-Length',
    'Accept-Encoding',
    'X-Signature',
    'Host',
  ]);
  // The instrumentation did run: it added its header and recorded a CLIENT span for the request.
  expect(names).toContain('traceparent');
  expect(spansNamed(sdk.spans(), 'POST').length).toBeGreaterThan(0);
});
