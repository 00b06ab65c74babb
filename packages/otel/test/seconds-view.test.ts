// The View docs/observability.md gives for `_seconds` names, on the real SDK and the real Prometheus
// exporter served over HTTP: the durations come out as `hookgate_*_duration_seconds_bucket`.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { createReceiver, fixture, sign } from '@hookgate/core';
import { METRIC, openTelemetry } from '@hookgate/otel';
import { expect, it } from 'vitest';

const SECRET = 'whsec_otel_seconds_SECRET_8e3b';

it('renames the durations to _seconds names', async () => {
  const exporter = new PrometheusExporter({ preventServerStart: true });
  const durations = [METRIC.receiverDuration, METRIC.handlerDuration, METRIC.enqueueDuration];
  const meterProvider = new MeterProvider({
    readers: [exporter],
    views: durations.map((name) => ({ instrumentName: name, name: `${name}.seconds` })),
  });
  const receiver = createReceiver({ secret: SECRET, telemetry: openTelemetry({ meterProvider }), onMessage() {} });
  const body = JSON.stringify(fixture('track', { messageId: 'm-seconds' } as never));
  const answer = await receiver.handle({
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature': sign(body, SECRET) },
    rawBody: body,
  });
  expect(answer.code).toBe('ok');

  const server = http.createServer((req, res) => exporter.getMetricsRequestHandler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const metrics = await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`)).text();
    expect(metrics).toMatch(/^hookgate_handler_duration_seconds_bucket\{/m);
    expect(metrics).toMatch(/^hookgate_receiver_duration_seconds_bucket\{/m);
    expect(metrics).not.toMatch(/^hookgate_handler_duration_bucket/m);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await meterProvider.shutdown();
  }
});
