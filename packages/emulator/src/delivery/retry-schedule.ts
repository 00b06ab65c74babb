import type { RetryOptions } from './delivery-options.js';

/**
 * The delay before retry round `n + 1` (n = 1 for the first retry): randomized exponential backoff,
 * `min(maxDelayMs, initialDelayMs × factor^(n-1))` spread by the jitter.
 *
 * @example
 * backoffDelay(3, { windowMs: 14_400_000, initialDelayMs: 1000, factor: 2, maxDelayMs: 3_600_000, jitter: 'none', random: Math.random }); // 4000
 */
export function backoffDelay(retry: number, options: Required<RetryOptions>): number {
  const cap = Math.min(options.maxDelayMs, options.initialDelayMs * options.factor ** Math.max(0, retry - 1));
  switch (options.jitter) {
    case 'none':
      return cap;
    case 'equal':
      return cap / 2 + options.random() * (cap / 2);
    default:
      return options.random() * cap;
  }
}

/**
 * Reads a `Retry-After` value (delay-seconds or an HTTP date) as milliseconds from `nowMs`, or
 * `undefined` when it is absent or unreadable.
 *
 * @example
 * retryAfterMs('120', Date.now()); // 120000
 */
export function retryAfterMs(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/**
 * The wait a `Retry-After` asks for before the next round, when the policy honours it: only on a 429 or a 503
 * (the answers that say "later"), as milliseconds from `nowMs`; otherwise `undefined`.
 *
 * @example
 * retryAfterWait(503, '120', true, Date.now()); // 120000
 * retryAfterWait(500, '120', true, Date.now()); // undefined
 */
export function retryAfterWait(
  status: number | undefined,
  retryAfter: string | undefined,
  honor: boolean,
  nowMs: number,
): number | undefined {
  if (!honor || (status !== 429 && status !== 503)) return undefined;
  return retryAfterMs(retryAfter, nowMs);
}

/**
 * The delay before the next round: the backoff, or the longest `Retry-After` of the round when that is later
 * (a `Retry-After` never makes a retry come sooner than the backoff).
 *
 * @example
 * nextRoundDelay(1, { ...retry, jitter: 'none', initialDelayMs: 1000 }, 120_000); // 120000
 */
export function nextRoundDelay(round: number, options: Required<RetryOptions>, retryAfter: number): number {
  return Math.max(backoffDelay(round, options), retryAfter);
}
