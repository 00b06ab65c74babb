import type { Counter, Histogram, Meter } from '@opentelemetry/api';
import { METRIC } from './names.js';

/** Bucket bounds in seconds for request and handler times: 1 ms to the sender's 5 s budget, and beyond. */
const SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 4, 5, 10, 30];

/**
 * The instruments of `openTelemetry()` on one meter.
 *
 * @example
 * const instruments = createInstruments(metrics.getMeter('@hookgate/otel'));
 * instruments.answers.add(1, { 'hookgate.answer.code': 'ok' });
 */
export interface Instruments {
  answers: Counter;
  receiverDuration: Histogram;
  handlerDuration: Histogram;
  planViolations: Counter;
  enqueueDuration: Histogram;
  deliveries: Counter;
  retries: Counter;
}

/**
 * Creates the instruments (once per `openTelemetry()`, on its first use).
 *
 * @example
 * const instruments = createInstruments(meterProvider.getMeter('@hookgate/otel'));
 */
export function createInstruments(meter: Meter): Instruments {
  const seconds = (name: string, description: string) =>
    meter.createHistogram(name, { description, unit: 's', advice: { explicitBucketBoundaries: SECONDS_BUCKETS } });
  return {
    answers: meter.createCounter(METRIC.answers, {
      description: 'Deliveries a receiver answered, by answer code, HTTP status and message type.',
      unit: '{answer}',
    }),
    receiverDuration: seconds(METRIC.receiverDuration, 'Time from a delivery’s arrival to its answer.'),
    handlerDuration: seconds(METRIC.handlerDuration, 'Time a receiver’s handler ran, by message type and outcome.'),
    planViolations: meter.createCounter(METRIC.planViolations, {
      description: 'Tracking plan violations in delivered messages, by event and rule.',
      unit: '{violation}',
    }),
    enqueueDuration: seconds(METRIC.enqueueDuration, 'Time a receiver’s enqueue took to store a message.'),
    deliveries: meter.createCounter(METRIC.deliveries, {
      description: 'Delivery attempts of the emulator, by outcome and HTTP status.',
      unit: '{attempt}',
    }),
    retries: meter.createCounter(METRIC.retries, {
      description: 'Retry attempts of the emulator (second round and later), by outcome.',
      unit: '{attempt}',
    }),
  };
}
