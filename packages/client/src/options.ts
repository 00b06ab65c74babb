import { type DeliveryError, OptionError } from './errors.js';
import type { FlushReport } from './types.js';

/**
 * Options of `new Analytics(writeKey, options)`. Every one is optional.
 *
 * @example
 * const analytics = new Analytics(process.env.WRITE_KEY!, {
 *   endpoint: 'http://127.0.0.1:8080', flushAt: 50, flushAfter: 2000,
 *   onError: (e) => console.error(e.message, e.messages.length),
 * });
 */
export interface AnalyticsOptions {
  /** Base URL of the intake; batches go to `<endpoint>/v1/batch`. Default `https://api.segment.io`. */
  endpoint?: string;
  /** Messages per batch: a batch is sent as soon as this many are queued. 1 turns batching off. Default 20. */
  flushAt?: number;
  /** Alias of `flushAt` (the Go library's `Size`). */
  size?: number;
  /** Longest time in ms a queued message waits for a batch to fill. Default 5000. */
  flushAfter?: number;
  /** Retries of a batch after a 5xx, 408, 429, network error or timeout. Default 10. */
  maxRetries?: number;
  /** Time in ms a request may take, answer included, before it is abandoned and retried. Default 10000. */
  timeoutMs?: number;
  /** Batches sent at the same time (HTTP connections kept alive). Default 4. */
  maxInFlight?: number;
  /** Fields merged (shallowly, the call's own win) into every message's `context`. Default none. */
  context?: Record<string, unknown>;
  /** Called with each batch given up, and its messages. Default: one line on stderr via `console.error`. */
  onError?: (error: DeliveryError) => void;
  /** Called after each batch the server accepted. */
  onFlush?: (report: FlushReport) => void;
}

/** Options with every default filled in. */
export interface ResolvedOptions {
  batchUrl: URL;
  flushAt: number;
  flushAfter: number;
  maxRetries: number;
  timeoutMs: number;
  maxInFlight: number;
  context: Record<string, unknown> | undefined;
  onError: (error: DeliveryError) => void;
  onFlush: ((report: FlushReport) => void) | undefined;
}

/**
 * The defaults of every option.
 *
 * @example
 * import { DEFAULT_OPTIONS } from '@hookgate/client';
 * console.log(DEFAULT_OPTIONS.flushAt); // 20
 */
export const DEFAULT_OPTIONS = Object.freeze({
  endpoint: 'https://api.segment.io',
  flushAt: 20,
  flushAfter: 5000,
  maxRetries: 10,
  timeoutMs: 10_000,
  maxInFlight: 4,
} as const);

const KNOWN = new Set([
  'endpoint',
  'flushAt',
  'size',
  'flushAfter',
  'maxRetries',
  'timeoutMs',
  'maxInFlight',
  'context',
  'onError',
  'onFlush',
]);

/** Names other clients use, and ours. */
const HINTS: Record<string, string> = {
  host: 'endpoint',
  url: 'endpoint',
  flushInterval: 'flushAfter',
  interval: 'flushAfter',
  maxEventsInBatch: 'flushAt',
  batchSize: 'flushAt',
  httpRequestTimeout: 'timeoutMs',
  timeout: 'timeoutMs',
  retries: 'maxRetries',
};

function defaultOnError(error: DeliveryError): void {
  console.error(`[@hookgate/client] ${error.message}`);
}

function integer(options: AnalyticsOptions, name: keyof AnalyticsOptions, min: number, fallback: number): number {
  const value = options[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new OptionError(name, `must be an integer >= ${min} (got ${describe(value)})`);
  }
  return value;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- objects, arrays and functions are answered before String(); what is left is a primitive
  return typeof value === 'object' ? 'an object' : String(value);
}

/** Checks the write key and options and fills in the defaults; throws an `OptionError` naming the bad one. */
export function resolveOptions(writeKey: unknown, options: AnalyticsOptions | undefined): ResolvedOptions {
  if (typeof writeKey !== 'string' || writeKey.length === 0) {
    throw new OptionError(
      'writeKey',
      `the first argument must be the source's write key, a non-empty string (got ${describe(writeKey)})`,
    );
  }
  const opts = options ?? {};
  if (typeof opts !== 'object' || opts === null || Array.isArray(opts)) {
    throw new OptionError('options', `the second argument must be an object (got ${describe(opts)})`);
  }
  for (const key of Object.keys(opts)) {
    if (!KNOWN.has(key)) {
      const hint = HINTS[key] ? ` (did you mean "${HINTS[key]}"?)` : '';
      throw new OptionError(key, `unknown option${hint}; known options: ${[...KNOWN].join(', ')}`);
    }
  }

  let flushAt = integer(opts, 'flushAt', 1, DEFAULT_OPTIONS.flushAt);
  if (opts.size !== undefined) {
    const size = integer(opts, 'size', 1, DEFAULT_OPTIONS.flushAt);
    if (opts.flushAt !== undefined && opts.flushAt !== size) {
      throw new OptionError('size', `is an alias of flushAt; got flushAt ${opts.flushAt} and size ${size}, give one`);
    }
    flushAt = size;
  }

  return {
    batchUrl: batchUrl(opts.endpoint),
    flushAt,
    flushAfter: integer(opts, 'flushAfter', 1, DEFAULT_OPTIONS.flushAfter),
    maxRetries: integer(opts, 'maxRetries', 0, DEFAULT_OPTIONS.maxRetries),
    timeoutMs: integer(opts, 'timeoutMs', 1, DEFAULT_OPTIONS.timeoutMs),
    maxInFlight: integer(opts, 'maxInFlight', 1, DEFAULT_OPTIONS.maxInFlight),
    context: plainObject(opts, 'context'),
    onError: fn(opts, 'onError') ?? defaultOnError,
    onFlush: fn(opts, 'onFlush'),
  };
}

function plainObject(opts: AnalyticsOptions, name: 'context'): Record<string, unknown> | undefined {
  const value = opts[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new OptionError(name, `must be an object (got ${describe(value)})`);
  }
  return value;
}

function fn<K extends 'onError' | 'onFlush'>(opts: AnalyticsOptions, name: K): AnalyticsOptions[K] | undefined {
  const value = opts[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'function') throw new OptionError(name, `must be a function (got ${describe(value)})`);
  return value;
}

/** `http://host:port/prefix/` → `http://host:port/prefix/v1/batch`. */
function batchUrl(endpoint: unknown): URL {
  const raw = endpoint ?? DEFAULT_OPTIONS.endpoint;
  if (typeof raw !== 'string') throw new OptionError('endpoint', `must be a URL string (got ${describe(raw)})`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OptionError(
      'endpoint',
      `must be an absolute http or https URL such as "https://api.segment.io" (got ${JSON.stringify(raw)})`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OptionError('endpoint', `must use http or https (got ${JSON.stringify(url.protocol)})`);
  }
  if (url.username || url.password) {
    throw new OptionError(
      'endpoint',
      'must not carry credentials; the write key (first argument) is sent by Basic auth',
    );
  }
  if (url.search || url.hash) {
    throw new OptionError('endpoint', `must be a base URL without query or fragment (got ${JSON.stringify(raw)})`);
  }
  const base = url.pathname.replace(/\/+$/, '');
  if (/\/v1\/batch$/.test(base)) {
    throw new OptionError(
      'endpoint',
      `is the intake's base URL; the client adds /v1/batch itself (got ${JSON.stringify(raw)})`,
    );
  }
  url.pathname = `${base}/v1/batch`;
  return url;
}
