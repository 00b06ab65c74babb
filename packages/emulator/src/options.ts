import type { Telemetry } from '@hookgate/core';
import { checkTelemetry } from '@hookgate/core/internal';
import { headerValueIssue } from './sendable-fields.js';
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';
import { SettingsError } from './errors.js';
import type { SourceSettings } from './routing/source-settings.js';
import { rejectUnknownKeys } from './routing/source-settings.js';
import { resolveActionsResponsePolicy, type ActionsResponsePolicy } from './actions/actions-response-settings.js';
import type { DeliveryResponsePolicy, RetryOptions, TlsOptions } from './delivery/delivery-options.js';

export type { RetryOptions, TlsOptions } from './delivery/delivery-options.js';

/**
 * The service's product token, the default `User-Agent`.
 *
 * @example
 * expect(request.headers['user-agent']).toBe(DEFAULT_USER_AGENT); // 'Segment.io/1.0'
 */
export const DEFAULT_USER_AGENT = 'Segment.io/1.0';

/**
 * What an answer leads to (decisions the destination's documentation leaves open; it fixes 2xx, 5xx and timeouts).
 * 2xx: delivered. 5xx, timeouts and connection errors: retried. The rest is set here.
 *
 * @example
 * createEmulator({ sources, responsePolicy: { clientErrors: 'retry', redirects: 'retry' } });
 */
export interface ResponsePolicy extends DeliveryResponsePolicy {
  /** Webhooks (Actions) deliveries: which 4xx are retried and which 5xx are not (Segment's rule by default). */
  actions?: ActionsResponsePolicy;
}

/**
 * Options of `createEmulator`.
 *
 * @example
 * const emulator = createEmulator({
 *   sources: [{ writeKey: 'wk', webhooks: { enabled: true, endpoints: [{ url }], sharedSecret: 's3cret' } }],
 *   clock: new ManualClock(),
 * });
 */
export interface EmulatorOptions {
  /** The sources and their Webhooks destination settings. */
  sources?: SourceSettings[];
  /** Real time (default) or a `ManualClock`. */
  clock?: Clock;
  /** Answer deadline per request, ms on the clock. Default 5000, the destination's 5 s. */
  timeoutMs?: number;
  /** The retry schedule. */
  retry?: RetryOptions;
  /** What 4xx, 3xx, 429 and TLS failures lead to. */
  responsePolicy?: ResponsePolicy;
  /** The `User-Agent` header. Default `Segment.io/1.0`. */
  userAgent?: string;
  /** Body key order: `insertion` (default; what `JSON.stringify` gives, like the real sender) or `sorted`. */
  serialization?: 'insertion' | 'sorted';
  /** Trusted CAs for `https` test servers. */
  tls?: TlsOptions;
  /** Add `messageId` (generated when the call has none) and `anonymousId` (when known) to messages. Default false. */
  includeIds?: boolean;
  /**
   * A call with only `anonymousId`: `filter` (default; recorded as filtered, since the Webhooks messages
   * require userId) or `anonymousId-as-userId`.
   */
  anonymousCalls?: 'filter' | 'anonymousId-as-userId';
  /** Most requests in flight at once to one endpoint; more wait in order (their deadline starts when sent). Default 64. */
  concurrency?: number;
  /**
   * Retention of the delivery log: past this many records, finished ones (delivered, failed, filtered)
   * are evicted oldest first; pending ones never are. `deliveryCounts()` and `usage()` still count
   * evicted records. A whole number ≥ 1, or `Infinity` to keep everything. Default 100,000.
   */
  maxRecords?: number;
  /**
   * The delivery log's byte budget: the bodies (UTF-8 bytes) of the records it keeps add up to at most
   * this. Finished records are evicted first, oldest first; pending ones never are: when they alone
   * fill it, a new message is refused (`LogFullError`; the intake answers 503 `log_full`) and nothing
   * accepted is dropped. Default 256 MiB (`DEFAULT_MAX_LOG_BYTES`): 100,000 pending 1 KB messages fit.
   */
  maxLogBytes?: number;
  /**
   * The intake's dedupe, like the tracking API's: a call whose `(writeKey, messageId)` the intake
   * accepted within the last `windowMs` (on the emulator's clock: a `ManualClock` moves it) is
   * acknowledged with 200 and recorded `filtered` with `duplicateOf`, never delivered again (a client
   * whose answer was lost resends its batch). Entries expire with the window; past `maxEntries` the
   * oldest is forgotten early. `false` turns it off. Default `{ windowMs: 86_400_000, maxEntries: 100_000 }`.
   */
  dedupe?: DedupeOptions | false;
  /**
   * Debug lines, one per attempt: `true`/`false` overrides `DEBUG`, a function receives each line.
   * Default: on when `DEBUG` names `hookgate` (`hookgate`, `hookgate*`, `hookgate:*`, `hookgate:emulator`).
   */
  debug?: boolean | ((line: string) => void);
  /**
   * Reports every delivery attempt once it ended (a `hookgate.deliver` span and the
   * `hookgate.emulator.deliveries` / `hookgate.emulator.retries` counters with `openTelemetry()` from
   * `@hookgate/otel`): the endpoint with its password and query values masked, the round, the status
   * and the outcome. The deliveries themselves carry no trace header. Default: none.
   *
   * @example
   * createEmulator({ sources, telemetry: openTelemetry() });
   */
  telemetry?: Telemetry;
}

/**
 * The intake's dedupe window (see `EmulatorOptions.dedupe`).
 *
 * @example
 * createEmulator({ sources, dedupe: { windowMs: 60 * 60 * 1000 } }); // one hour instead of 24
 */
export interface DedupeOptions {
  /** How long an accepted `(writeKey, messageId)` is remembered, in ms on the emulator's clock. Default 24 h (86,400,000). */
  windowMs?: number;
  /** Most pairs remembered at once; past it the oldest is forgotten before its time. Default 100,000. */
  maxEntries?: number;
}

/**
 * The dedupe window's defaults: 24 h, like the tracking API, and at most 100,000 messageIds remembered.
 *
 * @example
 * createEmulator({ sources, dedupe: { ...DEFAULT_DEDUPE, maxEntries: 1_000_000 } });
 */
export const DEFAULT_DEDUPE: Readonly<Required<DedupeOptions>> = Object.freeze({
  windowMs: 24 * 60 * 60 * 1000,
  maxEntries: 100_000,
});

/** Options with every default filled in. */
export interface ResolvedOptions {
  clock: Clock;
  timeoutMs: number;
  retry: Required<RetryOptions>;
  responsePolicy: Required<ResponsePolicy>;
  userAgent: string;
  serialization: 'insertion' | 'sorted';
  tls: TlsOptions;
  includeIds: boolean;
  anonymousCalls: 'filter' | 'anonymousId-as-userId';
  concurrency: number;
  maxRecords: number;
  maxLogBytes: number;
  /** The dedupe window, or `undefined` when turned off. */
  dedupe: Required<DedupeOptions> | undefined;
  debug: boolean | ((line: string) => void) | undefined;
  telemetry: Telemetry | undefined;
}

/**
 * The retry schedule's defaults: a 4 h window, 1 s first delay cap doubling up to 1 h, full jitter.
 *
 * @example
 * createEmulator({ sources, retry: { ...DEFAULT_RETRY, windowMs: 60_000 } });
 */
export const DEFAULT_RETRY: Readonly<Omit<Required<RetryOptions>, 'random'>> = Object.freeze({
  windowMs: 4 * 60 * 60 * 1000,
  initialDelayMs: 1000,
  factor: 2,
  maxDelayMs: 60 * 60 * 1000,
  jitter: 'full',
});

/**
 * Default retention of the delivery log (`maxRecords`): finished records beyond this many are evicted, oldest first.
 *
 * @example
 * createEmulator({ sources, maxRecords: DEFAULT_MAX_RECORDS * 10 });
 */
export const DEFAULT_MAX_RECORDS = 100_000;

/**
 * Default byte budget of the delivery log (`maxLogBytes`): 256 MiB of bodies.
 *
 * @example
 * createEmulator({ sources, maxLogBytes: DEFAULT_MAX_LOG_BYTES * 2 });
 */
export const DEFAULT_MAX_LOG_BYTES = 256 * 1024 * 1024;

const OPTION_KEYS = [
  'sources',
  'clock',
  'timeoutMs',
  'retry',
  'responsePolicy',
  'userAgent',
  'serialization',
  'tls',
  'includeIds',
  'anonymousCalls',
  'concurrency',
  'maxRecords',
  'maxLogBytes',
  'dedupe',
  'debug',
  'telemetry',
] as const;

function positive(value: unknown, name: string, fallback: number, allowZero = false): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (!allowZero && value === 0))
    throw new SettingsError(
      name,
      `must be a ${allowZero ? 'number ≥ 0' : 'positive number'} (got ${JSON.stringify(value)})`,
    );
  return value;
}

function oneOf<T extends string>(value: unknown, name: string, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !allowed.includes(value as T))
    throw new SettingsError(
      name,
      `must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')} (got ${JSON.stringify(value)})`,
    );
  return value as T;
}

/**
 * Validates the options (not the sources) and fills in the defaults; throws a `SettingsError`
 * naming the offending option.
 *
 * @example
 * resolveOptions({ timeoutMs: 1000 }).retry.windowMs; // 14_400_000
 */
export function resolveOptions(options: EmulatorOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) throw new SettingsError('options', 'must be an object');
  rejectUnknownKeys(options as Record<string, unknown>, OPTION_KEYS, '');
  const clock = options.clock ?? systemClock;
  if (typeof clock.now !== 'function' || typeof clock.setTimer !== 'function' || typeof clock.beginIo !== 'function')
    throw new SettingsError('clock', 'must be a Clock: systemClock or a new ManualClock()');
  const r = options.retry ?? {};
  if (typeof r !== 'object') throw new SettingsError('retry', 'must be an object');
  rejectUnknownKeys(
    r as Record<string, unknown>,
    ['windowMs', 'initialDelayMs', 'factor', 'maxDelayMs', 'jitter', 'random'],
    'retry',
  );
  const retry: Required<RetryOptions> = {
    windowMs: positive(r.windowMs, 'retry.windowMs', DEFAULT_RETRY.windowMs, true),
    initialDelayMs: positive(r.initialDelayMs, 'retry.initialDelayMs', DEFAULT_RETRY.initialDelayMs, true),
    factor: positive(r.factor, 'retry.factor', DEFAULT_RETRY.factor),
    maxDelayMs: positive(r.maxDelayMs, 'retry.maxDelayMs', DEFAULT_RETRY.maxDelayMs, true),
    jitter: oneOf(r.jitter, 'retry.jitter', ['full', 'equal', 'none'], DEFAULT_RETRY.jitter),
    random: r.random ?? Math.random,
  };
  if (typeof retry.random !== 'function')
    throw new SettingsError('retry.random', 'must be a function returning a number in [0, 1)');
  if (retry.factor < 1) throw new SettingsError('retry.factor', `must be ≥ 1 (got ${retry.factor})`);
  const p = options.responsePolicy ?? {};
  rejectUnknownKeys(
    p as Record<string, unknown>,
    ['retryStatuses', 'clientErrors', 'redirects', 'honorRetryAfter', 'tlsErrors', 'actions'],
    'responsePolicy',
  );
  const retryStatuses = p.retryStatuses ?? [408, 429];
  if (!Array.isArray(retryStatuses) || retryStatuses.some((s) => !Number.isInteger(s) || s < 100 || s > 599))
    throw new SettingsError('responsePolicy.retryStatuses', 'must be a list of HTTP status codes, e.g. [408, 429]');
  if (p.honorRetryAfter !== undefined && typeof p.honorRetryAfter !== 'boolean')
    throw new SettingsError('responsePolicy.honorRetryAfter', 'must be true or false');
  const responsePolicy: Required<ResponsePolicy> = {
    retryStatuses: [...retryStatuses],
    clientErrors: oneOf(p.clientErrors, 'responsePolicy.clientErrors', ['fail', 'retry'], 'fail'),
    redirects: oneOf(p.redirects, 'responsePolicy.redirects', ['fail', 'retry'], 'fail'),
    honorRetryAfter: p.honorRetryAfter ?? true,
    tlsErrors: oneOf(p.tlsErrors, 'responsePolicy.tlsErrors', ['fail', 'retry'], 'fail'),
    actions: resolveActionsResponsePolicy(p.actions),
  };
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  if (typeof userAgent !== 'string' || userAgent.length === 0)
    throw new SettingsError('userAgent', 'must be a non-empty one-line string, e.g. "Segment.io/1.0"');
  const userAgentIssue = headerValueIssue(userAgent);
  if (userAgentIssue !== undefined)
    throw new SettingsError('userAgent', `cannot be sent as the User-Agent header: it ${userAgentIssue}`);
  const tls = options.tls ?? {};
  if (typeof tls !== 'object' || tls === null) throw new SettingsError('tls', 'must be an object { ca }');
  rejectUnknownKeys(tls as Record<string, unknown>, ['ca'], 'tls');
  if (options.includeIds !== undefined && typeof options.includeIds !== 'boolean')
    throw new SettingsError('includeIds', 'must be true or false');
  const concurrency = positive(options.concurrency, 'concurrency', 64);
  if (!Number.isInteger(concurrency))
    throw new SettingsError('concurrency', `must be a whole number (got ${concurrency})`);
  const maxRecords = options.maxRecords ?? DEFAULT_MAX_RECORDS;
  if (typeof maxRecords !== 'number' || !(maxRecords === Infinity || (Number.isInteger(maxRecords) && maxRecords >= 1)))
    throw new SettingsError(
      'maxRecords',
      `must be a whole number ≥ 1, or Infinity to keep every record (got ${JSON.stringify(maxRecords)}); leave it out for ${DEFAULT_MAX_RECORDS}`,
    );
  const maxLogBytes = options.maxLogBytes ?? DEFAULT_MAX_LOG_BYTES;
  if (
    typeof maxLogBytes !== 'number' ||
    !(maxLogBytes === Infinity || (Number.isInteger(maxLogBytes) && maxLogBytes >= 1))
  )
    throw new SettingsError(
      'maxLogBytes',
      `must be a whole number of bytes ≥ 1, or Infinity for no budget (got ${JSON.stringify(options.maxLogBytes)}); leave it out for ${DEFAULT_MAX_LOG_BYTES}`,
    );
  let dedupe: Required<DedupeOptions> | undefined;
  if (options.dedupe !== false) {
    const d = options.dedupe ?? {};
    if (typeof d !== 'object' || d === null)
      throw new SettingsError('dedupe', 'must be an object { windowMs, maxEntries }, or false to turn it off');
    rejectUnknownKeys(d as Record<string, unknown>, ['windowMs', 'maxEntries'], 'dedupe');
    dedupe = {
      windowMs: positive(d.windowMs, 'dedupe.windowMs', DEFAULT_DEDUPE.windowMs),
      maxEntries: positive(d.maxEntries, 'dedupe.maxEntries', DEFAULT_DEDUPE.maxEntries),
    };
    if (!Number.isInteger(dedupe.maxEntries))
      throw new SettingsError('dedupe.maxEntries', `must be a whole number (got ${dedupe.maxEntries})`);
  }
  if (options.debug !== undefined && typeof options.debug !== 'boolean' && typeof options.debug !== 'function')
    throw new SettingsError('debug', 'must be true, false or a function receiving each line');
  return {
    clock,
    timeoutMs: positive(options.timeoutMs, 'timeoutMs', 5000),
    retry,
    responsePolicy,
    userAgent,
    serialization: oneOf(options.serialization, 'serialization', ['insertion', 'sorted'], 'insertion'),
    tls,
    includeIds: options.includeIds ?? false,
    anonymousCalls: oneOf(options.anonymousCalls, 'anonymousCalls', ['filter', 'anonymousId-as-userId'], 'filter'),
    concurrency,
    maxRecords,
    maxLogBytes,
    dedupe,
    debug: options.debug,
    telemetry: checkTelemetry(options.telemetry, 'createEmulator'),
  };
}
