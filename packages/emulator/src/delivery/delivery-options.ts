import type { Clock } from '../clock.js';

/**
 * The retry schedule (the destination's: 5xx retried with randomized exponential backoff for at most 4 h).
 * The n-th retry round waits `min(maxDelayMs, initialDelayMs × factor^(n-1))`, randomized by `jitter`.
 *
 * @example
 * createEmulator({ sources, retry: { initialDelayMs: 100, windowMs: 60_000 } });
 */
export interface RetryOptions {
  /** No attempt starts later than this after the first attempt. Default 4 h (14,400,000). */
  windowMs?: number;
  /** Delay cap of the first retry. Default 1000. */
  initialDelayMs?: number;
  /** Growth per retry. Default 2. */
  factor?: number;
  /** Largest delay. Default 1 h (3,600,000). */
  maxDelayMs?: number;
  /** `full` (default): uniform in [0, cap]; `equal`: cap/2 + uniform in [0, cap/2]; `none`: the cap. */
  jitter?: 'full' | 'equal' | 'none';
  /** Random source in [0, 1) for the jitter; pass a seeded one for reproducible schedules. Default Math.random. */
  random?: () => number;
}

/**
 * What an answer leads to (decisions the destination's documentation leaves open; it fixes 2xx, 5xx and timeouts).
 * 2xx: delivered. 5xx, timeouts and connection errors: retried. The rest is set here.
 *
 * @example
 * const policy: DeliveryResponsePolicy = { clientErrors: 'retry', redirects: 'retry' };
 */
export interface DeliveryResponsePolicy {
  /** 4xx statuses that are retried like a 5xx. Default [408, 429]. */
  retryStatuses?: number[];
  /** Other 4xx: `fail` (default: the receiver rejected the message; a retry sends the same bytes) or `retry`. */
  clientErrors?: 'fail' | 'retry';
  /** 3xx (never followed): `fail` (default) or `retry`. */
  redirects?: 'fail' | 'retry';
  /** Wait at least the `Retry-After` of a 429/503 before the next round (within the window). Default true. */
  honorRetryAfter?: boolean;
  /** TLS failures (self-signed, untrusted, wrong host): `fail` (default) or `retry`. No request is sent either way. */
  tlsErrors?: 'fail' | 'retry';
}

/**
 * TLS trust for `https` endpoints. Self-signed or untrusted certificates fail by default.
 *
 * @example
 * createEmulator({ sources, tls: { ca: testCaPem } }); // trust the test server's own CA
 */
export interface TlsOptions {
  /** Extra trusted CA certificates (PEM), on top of Node's defaults. */
  ca?: string | Buffer | Array<string | Buffer>;
}

/**
 * What the delivery engine reads of the emulator's resolved options.
 *
 * @example
 * const engine = new DeliveryEngine(options satisfies EngineOptions, events, undefined);
 */
export interface EngineOptions {
  readonly clock: Clock;
  readonly timeoutMs: number;
  readonly concurrency: number;
  readonly retry: Required<RetryOptions>;
  readonly tls: TlsOptions;
  readonly userAgent: string;
}
