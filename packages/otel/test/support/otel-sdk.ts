// The real OpenTelemetry SDK, in memory: spans to an InMemorySpanExporter (always-on sampler, exported
// as each span ends), metrics to a reader collected on demand, and the AsyncLocalStorage context
// manager (as the Node SDK registers it), so spans started in handlers and HTTP middleware nest.
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  MeterProvider,
  MetricReader,
  type DataPoint,
  type Histogram,
} from '@opentelemetry/sdk-metrics';
import {
  AlwaysOnSampler,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace';
import { openTelemetry, type OpenTelemetryOptions } from '@hookgate/otel';
import type { Telemetry } from '@hookgate/core';

/** A reader whose metrics are read when the test asks (`collect()`), cumulative. */
class ManualReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

/** One point of a metric: its attributes and its value (a sum, or a histogram's count and sum). */
export interface Point {
  attributes: Record<string, unknown>;
  value: number;
  count?: number;
  sum?: number;
}

/**
 * An SDK for one test file.
 *
 * @example
 * const sdk = startSdk();
 * createReceiver({ secret, telemetry: sdk.telemetry, onMessage() {} });
 */
export interface Sdk {
  telemetry: Telemetry;
  tracerProvider: TracerProvider;
  meterProvider: MeterProvider;
  spans(): ReadableSpan[];
  /** The points of a metric by name (empty when it has none). */
  points(name: string): Promise<Point[]>;
  /** Sum of a counter's points whose attributes include `match`. */
  count(name: string, match?: Record<string, unknown>): Promise<number>;
  /** Everything exported, as text: for searching secrets. */
  everything(): Promise<string>;
  reset(): void;
}

let contextManager: AsyncLocalStorageContextManager | undefined;

/** `options`: those of `openTelemetry` besides the providers. */
export function startSdk(options: Omit<OpenTelemetryOptions, 'tracerProvider' | 'meterProvider'> = {}): Sdk {
  if (contextManager === undefined) {
    contextManager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(contextManager);
  }
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({
    sampler: new AlwaysOnSampler(),
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
  });
  const reader = new ManualReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const telemetry = openTelemetry({ ...options, tracerProvider, meterProvider });

  async function points(name: string): Promise<Point[]> {
    const { resourceMetrics } = await reader.collect();
    const found = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).filter((m) => m.descriptor.name === name);
    return found.flatMap((m) =>
      (m.dataPoints as DataPoint<number | Histogram>[]).map((p) =>
        typeof p.value === 'number'
          ? { attributes: p.attributes, value: p.value }
          : { attributes: p.attributes, value: p.value.count, count: p.value.count, sum: p.value.sum ?? 0 },
      ),
    );
  }

  return {
    telemetry,
    tracerProvider,
    meterProvider,
    spans: () => exporter.getFinishedSpans(),
    points,
    async count(name, match = {}) {
      const all = await points(name);
      return all
        .filter((p) => Object.entries(match).every(([k, v]) => p.attributes[k] === v))
        .reduce((sum, p) => sum + p.value, 0);
    },
    async everything() {
      const { resourceMetrics } = await reader.collect();
      const spans = exporter.getFinishedSpans().map((s) => ({
        name: s.name,
        attributes: s.attributes,
        events: s.events,
        status: s.status,
        links: s.links,
      }));
      return JSON.stringify({ spans, metrics: resourceMetrics.scopeMetrics });
    },
    reset: () => exporter.reset(),
  };
}

/** The finished spans named `name`. */
export function spansNamed(spans: ReadableSpan[], name: string): ReadableSpan[] {
  return spans.filter((s) => s.name === name);
}
