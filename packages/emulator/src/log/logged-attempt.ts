import { redactHeaders, redactLocation, redactUrl } from '../redact.js';
import type { Attempt, AttemptError, DeliveryRecord } from './delivery-record.js';

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
}

/** What the engine knows when an attempt ends. */
export interface AttemptInit {
  endpoint: RecordEndpoint;
  round: number;
  atMs: number;
  /** The request headers exactly as sent. */
  requestHeaders: Readonly<Record<string, string>>;
  status: number | undefined;
  responseHeaders: Readonly<Record<string, string>> | undefined;
  responseBody: string | undefined;
  durationMs: number;
  error: AttemptError | undefined;
  outcome: Attempt['outcome'];
}

/**
 * The emulator's attempt: plain data, and its record's body (the bytes it sent).
 *
 * @example
 * const attempt = record.addAttempt(init);
 * attempt.toJSON().requestHeaders; // credentials masked
 */
export class LoggedAttempt implements Attempt {
  readonly #record: DeliveryRecord;
  /** The endpoint this attempt went to, as the engine resolved it. */
  readonly resolvedEndpoint: RecordEndpoint;
  readonly round: number;
  /** When the request started, epoch ms on the emulator's clock. */
  readonly atMs: number;
  readonly requestHeaders: Readonly<Record<string, string>>;
  readonly status: number | undefined;
  readonly responseHeaders: Readonly<Record<string, string>> | undefined;
  readonly responseBody: string | undefined;
  readonly durationMs: number;
  readonly error: AttemptError | undefined;
  readonly outcome: Attempt['outcome'];

  constructor(record: DeliveryRecord, init: AttemptInit) {
    this.#record = record;
    this.resolvedEndpoint = init.endpoint;
    this.round = init.round;
    this.atMs = init.atMs;
    this.requestHeaders = Object.freeze({ ...init.requestHeaders });
    this.status = init.status;
    this.responseHeaders = init.responseHeaders;
    this.responseBody = init.responseBody;
    this.durationMs = init.durationMs;
    this.error = init.error;
    this.outcome = init.outcome;
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
    };
  }
}
