import type { Telemetry } from '@hookgate/core';
import { metrics, trace, type MeterProvider, type TracerProvider } from '@opentelemetry/api';
import { recordDelivery } from './deliver-attempt.js';
import { createInstruments, type Instruments } from './instruments.js';
import { processJob } from './process-job.js';
import { ReceiveSpan } from './receive-observation.js';

/**
 * Options of `openTelemetry`.
 *
 * @example
 * const options: OpenTelemetryOptions = { tracerProvider: provider, meterProvider };
 */
export interface OpenTelemetryOptions {
  /** Where spans go. Default: the global tracer provider (the one the OpenTelemetry SDK registers). */
  tracerProvider?: TracerProvider;
  /** Where metrics go. Default: the global meter provider, as it is when the first delivery is reported. */
  meterProvider?: MeterProvider;
  /**
   * Record a failure's message (`exception.message`) besides its type. Default false: a handler's
   * error text may hold what it was handling (`failed for <userId> <email>`).
   */
  recordExceptionMessages?: boolean;
}

const SCOPE = '@hookgate/otel';

/**
 * hookgate's `telemetry` on OpenTelemetry: give it to a receiver (any adapter), a worker
 * (`createWorker`) and the emulator (`createEmulator`). Spans `hookgate.receive`, `hookgate.process`
 * (in the receiver's trace, through the job) and `hookgate.deliver`; metrics
 * `hookgate.receiver.answers`, `hookgate.receiver.duration`, `hookgate.handler.duration`,
 * `hookgate.plan.violations`, `hookgate.queue.enqueue.duration`, `hookgate.emulator.deliveries`,
 * `hookgate.emulator.retries`. Never a secret, a signature, a write key, the body, traits or properties.
 *
 * @example
 * import { NodeSDK } from '@opentelemetry/sdk-node';
 * import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
 * import { hookgate } from '@hookgate/express';
 * import { openTelemetry } from '@hookgate/otel';
 *
 * new NodeSDK({ metricReaders: [new PrometheusExporter({ port: 9464 })] }).start();
 * app.post('/webhooks', hookgate({ secret, telemetry: openTelemetry(), on: { track: (msg) => save(msg) } }));
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): Telemetry {
  const exceptionMessages = options.recordExceptionMessages === true;
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE);
  // Made on first use: the global meter provider is not a proxy, so one taken before the SDK started
  // would record nothing.
  let instruments: Instruments | undefined;
  const instrumentsNow = () =>
    (instruments ??= createInstruments((options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE)));
  return {
    receive: (arrival) => new ReceiveSpan(tracer, instrumentsNow(), arrival, exceptionMessages),
    process: (job, run) => processJob(tracer, instrumentsNow, job, run, exceptionMessages),
    deliver: (attempt) => recordDelivery(tracer, instrumentsNow(), attempt),
  };
}
