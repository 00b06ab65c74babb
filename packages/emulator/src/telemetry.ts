import type { DeliveryAttemptReport, Telemetry } from '@hookgate/core';
import { messageFacts } from '@hookgate/core/internal';
import type { Attempt, DeliveryRecord } from './log/delivery-record.js';
import type { EventHub } from './log/events.js';

/** An attempt that ended, as reported: its outcome is settled when its round is. */
type Report = Omit<DeliveryAttemptReport, 'outcome'>;

/**
 * Reports every delivery attempt to `telemetry` once it ended (the `attempt` event): its masked
 * endpoint, round, status, outcome and real time. An attempt that failed as retryable is reported
 * once its round is over, with what came of it: `retry` (a next round is due), `fail` (the emulator
 * gave up: the retry window closed, or it was closed) or `not-retried` (another endpoint accepted
 * the message). The attempt itself is untouched: the request carries no header the sender does not
 * send (no `traceparent`).
 *
 * @example
 * reportAttempts(pipeline.events, options.telemetry);
 */
export function reportAttempts(events: EventHub, telemetry: Telemetry | undefined): void {
  if (telemetry === undefined) return;
  const held = new Map<DeliveryRecord, Report[]>();
  // Called after each of the record's attempts (its round ends in the same turn as its last
  // attempt) and when it fails: the held attempts are reported once the round's result is known.
  const settle = (record: DeliveryRecord) => {
    const reports = held.get(record);
    if (reports === undefined) return;
    const outcome = roundResult(record);
    if (outcome === undefined) return; // other endpoints of the round are still out
    held.delete(record);
    for (const report of reports) telemetry.deliver({ ...report, outcome });
  };
  events.on('attempt', (attempt, record) => {
    const report = reportOf(attempt, record);
    if (attempt.outcome !== 'retry') return telemetry.deliver({ ...report, outcome: attempt.outcome });
    const reports = held.get(record);
    if (reports === undefined) held.set(record, [report]);
    else reports.push(report);
    queueMicrotask(() => settle(record));
  });
  events.on('failed', settle);
}

function reportOf(attempt: Attempt, record: DeliveryRecord): Report {
  const endedAt = Date.now();
  return {
    endpoint: attempt.endpoint,
    attempt: attempt.round,
    startedAt: endedAt - attempt.durationMs,
    durationMs: attempt.durationMs,
    status: attempt.status,
    errorCode: attempt.error?.code,
    message: { ...messageFacts(record.message), type: record.type },
  };
}

/** What came of a round's retryable failures; undefined while the round is running. */
function roundResult(record: DeliveryRecord): DeliveryAttemptReport['outcome'] | undefined {
  if (record.state === 'failed') return 'fail';
  if (record.state === 'delivered') return 'not-retried';
  return record.nextAttemptAt === undefined ? undefined : 'retry';
}
