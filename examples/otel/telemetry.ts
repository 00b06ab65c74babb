// OpenTelemetry for the example: the Node SDK with the Prometheus exporter (its /metrics served on a
// port of its own) and, for printing the trace tree, an in-memory span exporter. In production, put an
// OTLP exporter in `spanProcessors` instead (`new BatchSpanProcessor(new OTLPTraceExporter())`).
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';

/** The started SDK: where Prometheus scrapes, the spans ended so far, and how to stop. */
export interface ExampleTelemetry {
  /** `http://127.0.0.1:<port>/metrics`. */
  metricsUrl: string;
  spans: InMemorySpanExporter;
  shutdown(): Promise<void>;
}

/**
 * Starts the Node SDK (global tracer and meter providers, the AsyncLocalStorage context manager).
 * Call it before `openTelemetry()` is first used.
 *
 * @example
 * const telemetry = await startTelemetry({ metricsPort: 9464 });
 * console.log(`Prometheus: ${telemetry.metricsUrl}`);
 */
export async function startTelemetry(options: { metricsPort?: number } = {}): Promise<ExampleTelemetry> {
  // preventServerStart: /metrics is served below, on 127.0.0.1 only.
  const prometheus = new PrometheusExporter({ preventServerStart: true });
  const spans = new InMemorySpanExporter();
  const sdk = new NodeSDK({
    serviceName: 'hookgate-otel-example',
    metricReaders: [prometheus],
    spanProcessors: [new SimpleSpanProcessor({ exporter: spans })],
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
  const server = http.createServer((req, res) => {
    if (req.url === '/metrics') return prometheus.getMetricsRequestHandler(req, res);
    res.writeHead(404).end();
  });
  server.listen(options.metricsPort ?? 9464, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    metricsUrl: `http://127.0.0.1:${port}/metrics`,
    spans,
    async shutdown() {
      server.close();
      await sdk.shutdown();
    },
  };
}
