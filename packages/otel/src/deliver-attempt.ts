import type { DeliveryAttemptReport } from '@hookgate/core';
import { SpanKind, SpanStatusCode, type Attributes, type Tracer } from '@opentelemetry/api';
import type { Instruments } from './instruments.js';
import { ATTR, SPAN } from './names.js';
import { bounded, factAttributes, metricType } from './recorded-values.js';

/**
 * Records one ended delivery attempt of the emulator: a `hookgate.deliver` span (CLIENT) over the
 * attempt's time, and the `hookgate.emulator.deliveries` (and, from the second round,
 * `hookgate.emulator.retries`) counters. The endpoint is recorded as the emulator shows it: password
 * and query values masked. Nothing is sent: the deliveries carry no trace header.
 *
 * @example
 * recordDelivery(tracer, instruments, { endpoint, attempt: 1, startedAt, durationMs: 4, status: 200, outcome: 'delivered', message: {} });
 */
export function recordDelivery(tracer: Tracer, instruments: Instruments, attempt: DeliveryAttemptReport): void {
  const attributes: Attributes = {
    ...factAttributes(attempt.message),
    [ATTR.urlFull]: bounded(attempt.endpoint),
    [ATTR.attempt]: attempt.attempt,
    [ATTR.outcome]: attempt.outcome,
    [ATTR.retry]: attempt.outcome === 'retry',
  };
  if (attempt.status !== undefined) attributes[ATTR.httpStatus] = attempt.status;
  if (attempt.errorCode !== undefined) attributes[ATTR.errorType] = bounded(attempt.errorCode);
  const span = tracer.startSpan(SPAN.deliver, { kind: SpanKind.CLIENT, startTime: attempt.startedAt, attributes });
  if (attempt.outcome !== 'delivered') {
    span.setStatus({ code: SpanStatusCode.ERROR, message: attempt.errorCode ?? attempt.outcome });
  }
  span.end(attempt.startedAt + attempt.durationMs);

  const counted: Attributes = { [ATTR.outcome]: attempt.outcome };
  if (attempt.status !== undefined) counted[ATTR.httpStatus] = attempt.status;
  const type = metricType(attempt.message.type);
  if (type !== undefined) counted[ATTR.messageType] = type;
  instruments.deliveries.add(1, counted);
  if (attempt.attempt > 1) instruments.retries.add(1, counted);
}
