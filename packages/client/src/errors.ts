import { ValidationError, type ValidationIssue } from '@hookgate/core';
import { type CallType } from '@hookgate/core/calls';
import type { Message } from './types.js';

/**
 * Thrown at call time when a field is missing or wrong (the tracking API's rules, checked by
 * `@hookgate/core`): `.field` names the first offending top-level field (`'$'` when the call is
 * not an object at all), `.issues` lists every problem with its JSON path. Nothing was queued.
 *
 * @example
 * try { analytics.track({ userId: 'u1' } as TrackParams); }
 * catch (e) { if (e instanceof FieldError) console.log(e.callType, e.field); } // "track" "event"
 */
export class FieldError extends ValidationError {
  override readonly name = 'FieldError';
  /** The first offending top-level field, e.g. `event`, `userId`, `timestamp`. */
  readonly field: string;

  constructor(
    /** The method that was called. */
    readonly callType: CallType,
    issues: ValidationIssue[],
  ) {
    super(issues, `${callType} call`);
    const first = issues[0] ?? { path: '$', message: 'is invalid' };
    this.field = topLevelField(first.path);
    const rest =
      issues.length > 1
        ? ` (and ${issues.length - 1} more: ${issues
            .slice(1)
            .map((i) => i.path)
            .join(', ')})`
        : '';
    this.message = `${callType} call: ${this.field === '$' ? 'the call' : `"${this.field}"`} ${first.message}${rest}`;
  }
}

/** `$.properties.url` → `properties`; `$["Previous ID"]` → `Previous ID`; `$` → `$`. */
function topLevelField(path: string): string {
  const m = /^\$(?:\.([^.[]+)|\["((?:[^"\\]|\\.)*)"\])/.exec(path);
  if (!m) return '$';
  return m[1] ?? (JSON.parse(`"${m[2] ?? ''}"`) as string);
}

/**
 * Thrown at call time when a call's JSON is bigger than the tracking API's 32 KB call limit. Only that
 * call is refused; the queue and the calls around it are not affected.
 *
 * @example
 * try { analytics.track({ userId: 'u1', event: 'Big', properties: { blob } }); }
 * catch (e) { if (e instanceof CallTooLargeError) console.log(e.bytes, e.limit); }
 */
export class CallTooLargeError extends Error {
  override readonly name = 'CallTooLargeError';
  constructor(
    /** The method that was called. */
    readonly callType: CallType,
    /** Size of the call's JSON in bytes. */
    readonly bytes: number,
    /** The limit in bytes (`MAX_CALL_BYTES`). */
    readonly limit: number,
  ) {
    super(
      `${callType} call is ${bytes} bytes of JSON, over the ${limit}-byte (32 KB) limit per call; it was not queued`,
    );
  }
}

/**
 * Thrown by a call made after `close()`: the client accepts nothing more.
 *
 * @example
 * await analytics.close();
 * analytics.track({ userId: 'u1', event: 'Late' }); // throws ClientClosedError
 */
export class ClientClosedError extends Error {
  override readonly name = 'ClientClosedError';
  constructor(
    /** The method that was called. */
    readonly callType: CallType,
  ) {
    super(`${callType} call after close(): the client no longer accepts calls; create a new Analytics instance`);
  }
}

/**
 * Thrown by `new Analytics()` when the write key or an option is wrong; `.option` names it.
 *
 * @example
 * try { new Analytics('key', { flushAt: 0 }); }
 * catch (e) { if (e instanceof OptionError) console.log(e.option); } // "flushAt"
 */
export class OptionError extends TypeError {
  override readonly name = 'OptionError';
  constructor(
    /** The offending option, e.g. `flushAt`, or `writeKey` for the first argument. */
    readonly option: string,
    message: string,
  ) {
    super(`Invalid option "${option}": ${message}`);
  }
}

/**
 * Why a batch could not be delivered.
 *
 * @example
 * const retryLater = (e: DeliveryError) => e.reason === 'retries-exhausted';
 */
export type DeliveryFailure =
  /** Not retryable: a status such as 4xx (other than 408 and 429), 1xx or 3xx, or an untrusted TLS certificate. */
  | 'rejected'
  /** Retries ran out (`maxRetries`) on 5xx, 408, 429, network errors or timeouts. */
  | 'retries-exhausted'
  /**
   * `close({ timeoutMs })` ran out of time first: the batch was still queued, waiting for a retry,
   * or in flight (that request is aborted, and the server may have received it).
   */
  | 'closed';

/**
 * What `onError` receives when a batch is given up: the messages concerned, why, the last HTTP
 * status (if the server answered) and the number of attempts.
 *
 * @example
 * new Analytics(key, {
 *   onError: (e) => log.warn({ reason: e.reason, status: e.status, ids: e.messages.map((m) => m.messageId) }, e.message),
 * });
 */
export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';
  constructor(
    /** `rejected` (not retryable) or `retries-exhausted`. */
    readonly reason: DeliveryFailure,
    /** The messages of the batch, as sent. */
    readonly messages: Message[],
    /** Attempts made. */
    readonly attempts: number,
    /** Description of the last failure: `HTTP 400: <body start>`, `timeout after 10000 ms`, `ECONNREFUSED`… */
    readonly detail: string,
    /** The last HTTP status, when the server answered. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(
      `${messages.length} message(s) not delivered after ${attempts} attempt(s)` +
        `${reason === 'rejected' ? ' (not retryable)' : ''}: ${detail}`,
      options,
    );
  }
}
