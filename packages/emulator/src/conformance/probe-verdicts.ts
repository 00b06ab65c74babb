import type { ProbeResult } from './http-probe.js';

/** The receiver answered 2xx. */
export const is2xx = (r: ProbeResult) => r.kind === 'answer' && r.status >= 200 && r.status < 300;

/** The receiver answered 4xx. */
export const is4xx = (r: ProbeResult) => r.kind === 'answer' && r.status >= 400 && r.status < 500;

/** The answer's status, or null when none came. */
export const statusOf = (r: ProbeResult) => (r.kind === 'answer' ? r.status : null);

/** What came back, in words: "answered 200 in 12 ms", the timeout, or why there was no answer. */
export const observed = (r: ProbeResult) =>
  r.kind === 'answer' ? `answered ${r.status} in ${r.durationMs} ms` : r.timedOut ? r.error : `no answer: ${r.error}`;

/** Why a request that should have been refused (4xx) was not, worded for what really came back. */
export function notRefused(r: ProbeResult): string {
  if (r.kind === 'failure') {
    return r.timedOut
      ? `${r.error} instead of a 4xx: refuse a bad signature at once, before any slow work`
      : `${observed(r)} instead of a 4xx`;
  }
  if (r.status >= 200 && r.status < 300)
    return `${observed(r)} instead of a 4xx: the receiver accepts a forged request`;
  if (r.status >= 500)
    return `${observed(r)} instead of a 4xx: the sender retries a 5xx for hours, and the request can never succeed`;
  return `${observed(r)} instead of a 4xx`;
}

/** An answer saying "already handled": the receiver remembered the message as delivered. */
export function isDuplicateAnswer(r: ProbeResult): boolean {
  if (r.kind !== 'answer') return false;
  try {
    const body = JSON.parse(r.body) as { duplicate?: unknown; code?: unknown };
    return body.duplicate === true || body.code === 'duplicate';
  } catch {
    return false;
  }
}
