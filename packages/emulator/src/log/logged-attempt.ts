import { STATUS_CODES } from 'node:http';
import { redactHeaders, redactLocation, redactUrl } from '../redact.js';

/**
 * Why an attempt did not succeed: `timeout` (no answer within `timeoutMs`), `connection` (refused,
 * reset, unreachable, DNS), `tls` (untrusted or self-signed certificate: no request was sent),
 * `redirect` (a 3xx, never followed), `http` (any other non-2xx status), `protocol` (a malformed
 * answer), `aborted` (`close()` ended it).
 *
 * @example
 * const retried: AttemptErrorCode[] = ['timeout', 'connection'];
 */
export type AttemptErrorCode = 'timeout' | 'connection' | 'tls' | 'redirect' | 'http' | 'protocol' | 'aborted';

/**
 * The error of a failed attempt.
 *
 * @example
 * if (attempt.error?.code === 'timeout') console.log(attempt.error.message);
 */
export interface AttemptError {
  /** The kind of failure. */
  code: AttemptErrorCode;
  /** A readable explanation, e.g. `500 Internal Server Error` or `ECONNRESET: socket hang up`. */
  message: string;
  /** The system error code when there is one, e.g. `ECONNREFUSED`, `DEPTH_ZERO_SELF_SIGNED_CERT`. */
  cause?: string;
  /** For a `timeout`: the limit it hit, in milliseconds (the `timeoutMs` option). */
  limitMs?: number;
}

/**
 * One HTTP request to one endpoint (each delivery to an endpoint is one event).
 *
 * @example
 * emulator.on('attempt', (attempt) => console.log(attempt.endpoint, attempt.status ?? attempt.error?.code));
 */
export interface Attempt {
  /** The id of the delivery record this attempt belongs to. */
  readonly recordId: string;
  /** The endpoint URL as shown: password and query values masked (`redactUrl`); the request used the real one. */
  readonly endpoint: string;
  /** 1 for the first round (every endpoint), 2 for the first retry round, ... */
  readonly round: number;
  /** When the request started, ISO 8601 UTC on the emulator's clock. */
  readonly at: string;
  /** The request headers exactly as sent (the signature in full: this is your test's evidence). Frozen. */
  readonly requestHeaders: Readonly<Record<string, string>>;
  /** The request body: the exact bytes sent, as UTF-8 text. */
  readonly body: string;
  /** The answer's status, when an answer came. */
  readonly status?: number;
  /** Response headers of interest (`retry-after`, `location`), when an answer came. */
  readonly responseHeaders?: Readonly<Record<string, string>>;
  /** Up to the first 1 KB of the answer's body. */
  readonly responseBody?: string;
  /** Real milliseconds from the request's start to its end (answer read, error, or timeout). */
  readonly durationMs: number;
  /** What went wrong; absent on a 2xx. */
  readonly error?: AttemptError;
  /**
   * What the attempt led to for this endpoint: delivered, retry in a later round, given up, or
   * `not-retried`: it failed as retryable after another endpoint had accepted the message, so no
   * retry follows (`notRetriedBecause` says which endpoint). A `retry` attempt whose retry another
   * endpoint's acceptance made moot is followed by a `CancelledRetry` in `record.cancelled`.
   */
  readonly outcome: 'delivered' | 'retry' | 'fail' | 'not-retried';
  /** For a `not-retried` attempt: why, e.g. `endpoint 1 accepted` (1-based, the source's endpoint order). */
  readonly notRetriedBecause?: string;
}

/**
 * An endpoint as the log knows it: where requests went and with which static headers (a Webhooks
 * (Actions) endpoint also has its method and `User-Agent`).
 *
 * @example
 * const endpoint: RecordEndpoint = { url, parsed: new URL(url), headers: {} };
 */
export interface RecordEndpoint {
  readonly url: string;
  readonly parsed: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly method?: 'POST' | 'PUT' | 'PATCH';
  readonly userAgent?: string;
  /**
   * The request's header lines as its sender writes them (names, case, order), `Host` and
   * `Connection` left to the HTTP client; absent, the engine writes classic Webhooks' block.
   */
  readonly headerBlock?: (
    bodyLength: number,
    signature: string | undefined,
  ) => ReadonlyArray<readonly [string, string]>;
}

/** What says an attempt's request headers again: the delivery target it was sent through. */
export interface HeaderSource {
  headers(bodyLength: number, signature: string | undefined): Record<string, string>;
}

/** How an attempt's destination words an answer: its delivery policy. */
export interface AnswerWording {
  judgeAnswer(
    status: number,
    statusText: string | undefined,
    location: string | undefined,
  ): { readonly outcome: string; readonly error?: AttemptError };
}

/** What an attempt reads of its record: its id, and the body and signature it sent. */
export interface AttemptRecord {
  readonly id: string;
  readonly body: string;
  readonly bodyLength: number;
  readonly signature: string | undefined;
}

/** What the engine knows when an attempt ends. */
export interface AttemptInit {
  endpoint: RecordEndpoint;
  /** What built the request's headers (they are built again, the same, when read). */
  sentThrough: HeaderSource;
  /** How the answer is worded when it is an error (the record's delivery policy). */
  wording: AnswerWording;
  round: number;
  atMs: number;
  status: number | undefined;
  /** The answer's reason phrase, e.g. `Service Unavailable`. */
  statusText: string | undefined;
  responseHeaders: Readonly<Record<string, string>> | undefined;
  responseBody: string | undefined;
  durationMs: number;
  /** Why no whole answer came (timeout, connection, TLS, close), when none did. */
  failure: AttemptError | undefined;
  outcome: Attempt['outcome'];
  /** For a `not-retried` outcome: why (`endpoint 1 accepted`). */
  notRetriedBecause?: string | undefined;
}

/**
 * The emulator's attempt: plain data. What can be said again from what its record already holds is
 * derived when read rather than kept per attempt: its request headers (from the target it went
 * through, the body's length and the signature) and the error of an answer (from the status, through
 * the record's policy). A reason phrase that is the standard one for its status is not kept.
 *
 * @example
 * const attempt = record.addAttempt(init);
 * attempt.toJSON().requestHeaders; // credentials masked
 */
export class LoggedAttempt implements Attempt {
  readonly #record: AttemptRecord;
  /** The endpoint this attempt went to, as the engine resolved it. */
  readonly resolvedEndpoint: RecordEndpoint;
  readonly #sentThrough: HeaderSource;
  readonly #wording: AnswerWording;
  readonly round: number;
  /** When the request started, epoch ms on the emulator's clock. */
  readonly atMs: number;
  readonly status: number | undefined;
  /** The reason phrase, when it is not the standard one for `status`. */
  readonly #statusText: string | undefined;
  readonly responseHeaders: Readonly<Record<string, string>> | undefined;
  readonly responseBody: string | undefined;
  readonly durationMs: number;
  readonly #failure: AttemptError | undefined;
  readonly outcome: Attempt['outcome'];
  readonly notRetriedBecause: string | undefined;

  constructor(record: AttemptRecord, init: AttemptInit) {
    this.#record = record;
    this.resolvedEndpoint = init.endpoint;
    this.#sentThrough = init.sentThrough;
    this.#wording = init.wording;
    this.round = init.round;
    this.atMs = init.atMs;
    this.status = init.status;
    const standard = init.status === undefined ? undefined : STATUS_CODES[init.status];
    this.#statusText = init.statusText === standard ? undefined : init.statusText;
    this.responseHeaders = init.responseHeaders;
    this.responseBody = init.responseBody;
    this.durationMs = init.durationMs;
    this.#failure = init.failure;
    this.outcome = init.outcome;
    this.notRetriedBecause = init.notRetriedBecause;
  }

  get recordId(): string {
    return this.#record.id;
  }

  get endpoint(): string {
    return redactUrl(this.resolvedEndpoint.url);
  }

  get at(): string {
    return new Date(this.atMs).toISOString();
  }

  get body(): string {
    return this.#record.body;
  }

  /** The request headers exactly as sent, built again from the target, the body's length and the signature. Frozen. */
  get requestHeaders(): Readonly<Record<string, string>> {
    const record = this.#record;
    return Object.freeze(this.#sentThrough.headers(record.bodyLength, record.signature));
  }

  get error(): AttemptError | undefined {
    if (this.outcome === 'delivered') return undefined;
    if (this.#failure !== undefined || this.status === undefined) return this.#failure;
    const statusText = this.#statusText ?? STATUS_CODES[this.status];
    return this.#wording.judgeAnswer(this.status, statusText, this.responseHeaders?.location).error;
  }

  /** A plain object with every field, for `JSON.stringify` and logs: no credential (`redactHeaders`). */
  toJSON(): Record<string, unknown> {
    return {
      recordId: this.recordId,
      endpoint: this.endpoint,
      round: this.round,
      at: this.at,
      requestHeaders: redactHeaders(this.requestHeaders),
      body: this.body,
      status: this.status,
      responseHeaders:
        this.responseHeaders?.location === undefined
          ? this.responseHeaders
          : { ...this.responseHeaders, location: redactLocation(this.responseHeaders.location) },
      responseBody: this.responseBody,
      durationMs: this.durationMs,
      error: this.error,
      outcome: this.outcome,
      notRetriedBecause: this.notRetriedBecause,
    };
  }
}
