import type { Telemetry } from '@hookgate/core';
import { messageFacts } from '@hookgate/core/internal';
import type { EventHub } from './log/events.js';

/**
 * Reports every delivery attempt to `telemetry` once it ended (the `attempt` event): its masked
 * endpoint, round, status, outcome and real time. The attempt itself is untouched: the request
 * carries no header the sender does not send (no `traceparent`).
 *
 * @example
 * reportAttempts(pipeline.events, options.telemetry);
 */
export function reportAttempts(events: EventHub, telemetry: Telemetry | undefined): void {
  if (telemetry === undefined) return;
  events.on('attempt', (attempt, record) => {
    const endedAt = Date.now();
    telemetry.deliver({
      endpoint: attempt.endpoint,
      attempt: attempt.round,
      startedAt: endedAt - attempt.durationMs,
      durationMs: attempt.durationMs,
      status: attempt.status,
      errorCode: attempt.error?.code,
      outcome: attempt.outcome,
      message: { ...messageFacts(record.message), type: record.type },
    });
  });
}
