/** First retry waits about this long; each later one twice as long. */
export const BASE_DELAY_MS = 100;
/** Longest wait between two attempts computed by backoff. */
export const MAX_DELAY_MS = 10_000;
/** Longest `Retry-After` honoured: a longer one is shortened to this. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Whether an HTTP status is worth another attempt: 5xx (the server failed), 429 (rate limited) and
 * 408 (the server timed out reading the request). Other 4xx mean the batch itself is refused: sending
 * it again would be refused again. 1xx and 3xx (redirects are not followed) are not retried either.
 */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 429 || status === 408;
}

/**
 * Whether a request that got no answer is worth another attempt: yes for connection errors (refused,
 * reset, unreachable, DNS, timeout), no when the server's TLS certificate cannot be trusted
 * (self-signed, expired, wrong name): that will not fix itself, and no request was sent.
 */
export function isRetryableError(error: Error & { code?: string }): boolean {
  const code = error.code ?? '';
  return !/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(code);
}

/**
 * Delay before retry number `retry` (1 for the first retry): exponential from `BASE_DELAY_MS`, capped
 * at `MAX_DELAY_MS`, with jitter between half and all of it so that clients do not retry in step.
 */
export function backoffDelay(retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, retry - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * Reads a `Retry-After` header (delay in seconds, or an HTTP date) into milliseconds from `now`,
 * capped at `MAX_RETRY_AFTER_MS`. Returns `undefined` when absent or unreadable.
 */
export function parseRetryAfter(header: string | undefined, now: number = Date.now()): number | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  let ms: number;
  if (/^\d+(?:\.\d+)?$/.test(value)) ms = Number(value) * 1000;
  else {
    const at = Date.parse(value);
    if (Number.isNaN(at)) return undefined;
    ms = at - now;
  }
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, Math.round(ms)));
}
