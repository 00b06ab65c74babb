import dc from 'node:diagnostics_channel';
import type { AttemptError } from '../log/delivery-record.js';
import type { Http1Connection, Http1Exchange, Http1Target } from './http1-connection-pool.js';
import type { Http1ResponseParser } from './http1-response-parser.js';

/** What came back from one request: an answer (status, headers of interest, body start) or an error. */
export interface AttemptResult {
  status: number | undefined;
  statusText: string | undefined;
  responseHeaders: Record<string, string> | undefined;
  responseBody: string | undefined;
  error: AttemptError | undefined;
  /** Real milliseconds from start to end. */
  durationMs: number;
}

/** A request in flight; `abort` ends it with the given error (reported once, synchronously). */
export interface AttemptHandle {
  abort(error: AttemptError): void;
}

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REVOKED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
  'EPROTO',
]);

/**
 * Names a Node request error: `tls` for certificate and handshake failures, `protocol` for a
 * malformed answer, `connection` for the rest (refused, reset, unreachable, DNS).
 *
 * @example
 * classifyNodeError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })).code; // 'connection'
 */
export function classifyNodeError(e: Error & { code?: string }): AttemptError {
  const cause = typeof e.code === 'string' ? e.code : undefined;
  const text = cause && !e.message.includes(cause) ? `${cause}: ${e.message}` : e.message;
  if (
    cause &&
    (TLS_CODES.has(cause) || cause.startsWith('ERR_TLS') || cause.startsWith('ERR_SSL') || cause.startsWith('CERT_'))
  ) {
    return { code: 'tls', message: `TLS handshake failed, no request sent: ${text}`, cause };
  }
  if (cause?.startsWith('HPE_')) return { code: 'protocol', message: `malformed answer: ${text}`, cause };
  return { code: 'connection', message: text, ...(cause ? { cause } : {}) };
}

/**
 * The diagnostics channel on which each delivery request is published as it is handed to its socket
 * (`{ url, signature }`), for tests that order request starts against the emulator's events.
 *
 * @example
 * dc.subscribe(REQUEST_START_CHANNEL, (m) => console.log((m as { url: URL }).url.pathname));
 */
export const REQUEST_START_CHANNEL = 'hookgate:emulator:request-start';
const requestStart = dc.channel(REQUEST_START_CHANNEL);

/** What node:http reports for a connection that closed before any answer. */
function hangUp(): Error & { code: string } {
  return Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
}

/** The answer's headers the engine reads (`retry-after`, `location`), or undefined when it has neither. */
function pickedHeaders(parser: Http1ResponseParser): Record<string, string> | undefined {
  if (parser.retryAfter === undefined && parser.location === undefined) return undefined;
  const picked: Record<string, string> = {};
  if (parser.retryAfter !== undefined) picked['retry-after'] = parser.retryAfter;
  if (parser.location !== undefined) picked.location = parser.location;
  return picked;
}

/** The state of one request in flight: the exchange its connection reports to (no closure per request). */
class InFlightRequest implements AttemptHandle, Http1Exchange {
  readonly started = performance.now();
  done = false;
  /** The connection carrying the request, until the attempt ends. */
  connection: Http1Connection | undefined = undefined;
  /** The request's bytes (head and body), until the attempt ends. */
  request: Buffer | undefined = undefined;

  constructor(readonly onDone: (result: AttemptResult) => void) {}

  finish(
    error: AttemptError | undefined,
    status: number | undefined,
    statusText: string | undefined,
    responseHeaders: Record<string, string> | undefined,
    responseBody: string | undefined,
  ): void {
    if (this.done) return;
    this.done = true;
    // Let go of the connection and the request's bytes at once: whoever still holds this handle (the
    // engine's entry, a V8 remembered-set slot of an object promoted while the request was in flight)
    // must not keep them alive. Holding node:http's request graph made each request's garbage survive
    // young-generation GCs: ≈ 2.5 KB promoted to old space per attempt (bench/README.md, emulator).
    this.connection = undefined;
    this.request = undefined;
    this.onDone({
      status,
      statusText,
      responseHeaders,
      responseBody,
      error,
      durationMs: Math.round((performance.now() - this.started) * 100) / 100,
    });
  }

  answered(parser: Http1ResponseParser): void {
    this.finish(undefined, parser.status, parser.statusText, pickedHeaders(parser), parser.bodyText());
  }

  malformed(reason: string): void {
    this.finish(
      { code: 'protocol', message: `malformed answer: ${reason}` },
      undefined,
      undefined,
      undefined,
      undefined,
    );
  }

  broken(error: (Error & { code?: string }) | undefined, parser: Http1ResponseParser): void {
    if (parser.status !== undefined) {
      this.finish(
        { code: 'connection', message: `the answer (${parser.status}) was cut off before its end` },
        parser.status,
        parser.statusText,
        pickedHeaders(parser),
        undefined,
      );
    } else {
      this.finish(classifyNodeError(error ?? hangUp()), undefined, undefined, undefined, undefined);
    }
  }

  abort(error: AttemptError): void {
    const connection = this.connection;
    // An answer whose head came but whose body did not end: its status is reported with the error.
    const parser = connection?.exchange === this ? connection.parser : undefined;
    this.finish(error, parser?.status, parser?.statusText, parser && pickedHeaders(parser), undefined);
    connection?.abandon();
  }
}

/**
 * Sends one POST (no redirect followed, `Content-Length` set, keep-alive) on a pooled HTTP/1.1
 * connection and reports its result once through `onDone`: the status when the whole answer has been
 * read, or the error.
 *
 * @example
 * const handle = sendAttempt(pool.target(endpoint), body, signature, (result) => console.log(result.status ?? result.error));
 * handle.abort({ code: 'timeout', message: 'no answer within 5000 ms' });
 */
export function sendAttempt(
  target: Http1Target,
  body: Uint8Array,
  signature: string | undefined,
  onDone: (result: AttemptResult) => void,
): AttemptHandle {
  const state = new InFlightRequest(onDone);
  const invalid = target.head.invalid;
  if (invalid) {
    state.finish(classifyNodeError(invalid), undefined, undefined, undefined, undefined);
    return state;
  }
  const request = target.head.render(body, signature);
  let connection: Http1Connection;
  try {
    connection = target.origin.pool.connection(target.origin);
  } catch (e) {
    state.finish(classifyNodeError(e as Error), undefined, undefined, undefined, undefined);
    return state;
  }
  state.connection = connection;
  state.request = request;
  if (requestStart.hasSubscribers) requestStart.publish({ url: target.url, signature });
  connection.send(request, state);
  return state;
}
