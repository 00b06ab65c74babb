import { redactSignature, redactUrl } from '../debug-log.js';
import type { LoggedDelivery } from '../log/delivery-record.js';
import type { LoggedAttempt } from '../log/logged-attempt.js';

/** Formats a duration for a reason: `4 h`, `90 s`, `250 ms`. */
export function formatDuration(ms: number): string {
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms >= 1000 && ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}

/** Each endpoint's last error (its last attempt's), for a failed record's reason; URLs redacted. */
export function lastErrors(record: LoggedDelivery): string {
  return record.endpoints
    .map((e) => {
      const err = record.attempts.findLast((a) => a.resolvedEndpoint === e)?.error;
      return `${redactUrl(e.parsed)} → ${err ? `${err.code}: ${err.message}` : 'no error'}`;
    })
    .join('; ');
}

/** The debug log's line for an attempt: when, which record, where (redacted), the answer, the outcome. */
export function attemptLogLine(record: LoggedDelivery, a: LoggedAttempt, url: URL): string {
  const answer = !a.error
    ? `${a.status}`
    : a.error.code === 'http'
      ? a.error.message
      : `${a.status !== undefined ? `${a.status} ` : ''}${a.error.code}: ${a.error.message}`;
  const sig = record.signature ? ` sig=${redactSignature(record.signature)}` : '';
  const method = record.actions?.method ?? 'POST';
  return `${a.at} ${record.id} ${record.type} round ${a.round} ${method} ${redactUrl(url)} → ${answer} ${a.durationMs}ms ${a.outcome}${sig}`;
}
