import dc from 'node:diagnostics_channel';
import type { AttemptError } from '../log/delivery-record.js';
import type { DeliveryTarget } from './endpoint-agents.js';
import { sendHttpRequest, UPGRADE_ANSWER, type HttpAnswer } from './http-client.js';

/**
 * Bytes of an answer's body kept for the delivery log.
 *
 * @example
 * (attempt.responseBody ?? '').length <= RESPONSE_BODY_LIMIT; // true for ASCII bodies
 */
export const RESPONSE_BODY_LIMIT = 1024;

/**
 * Bytes of an answer's body read at most (as they come, before decoding). Past them the rest is not
 * read, the connection is closed, and the status decides the outcome: an endpoint that streams an
 * endless answer costs 64 KiB per attempt, not a whole timeout of reading.
 *
 * @example
 * ANSWER_READ_LIMIT; // 65536
 */
export const ANSWER_READ_LIMIT = 64 * 1024;

/** What came back from one request: an answer (status, headers of interest, body start) or an error. */
export interface AttemptResult {
  /** The sender's headers as sent (without `Host` and the userinfo's `Authorization`). */
  requestHeaders: Record<string, string>;
  status: number | undefined;
  statusText: string | undefined;
  responseHeaders: Record<string, string> | undefined;
  responseBody: string | undefined;
  error: AttemptError | undefined;
  /** Real milliseconds from start to end. */
  durationMs: number;
}

/**
 * Why the engine ends a request before its answer: its deadline passed (`limitMs`, the `timeoutMs`
 * option), or `close()` ran. The attempt's error is worded from these fields, here, once.
 */
export type AbortReason = { readonly code: 'timeout'; readonly limitMs: number } | { readonly code: 'aborted' };

/** A request in flight; `abort` ends it for the given reason (reported once, synchronously). */
export interface AttemptHandle {
  abort(reason: AbortReason): void;
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
 * The diagnostics channel on which each delivery request is published as it is handed to node:http
 * (`{ url, signature }`), for tests that order request starts against the emulator's events.
 *
 * @example
 * dc.subscribe(REQUEST_START_CHANNEL, (m) => console.log((m as { url: URL }).url.pathname));
 */
export const REQUEST_START_CHANNEL = 'hookgate:emulator:request-start';
const requestStart = dc.channel(REQUEST_START_CHANNEL);

/** The answer's headers the engine reads (`retry-after`, `location`), or undefined when it has neither. */
function pickedHeaders(answer: HttpAnswer): Record<string, string> | undefined {
  const { 'retry-after': retryAfter, location } = answer.headers;
  if (retryAfter === undefined && location === undefined) return undefined;
  return { ...(retryAfter !== undefined ? { 'retry-after': retryAfter } : {}), ...(location ? { location } : {}) };
}

/** Marks the end the engine asked for through `abort` (a timeout, `close()`), with its reason. */
class AbortedAttempt extends Error {
  constructor(readonly reason: AbortReason) {
    super(reason.code);
  }
}

/** The error of an attempt the engine ended: a timeout named for what had come by then, or `close()`. */
function abortedError(reason: AbortReason, answer: HttpAnswer | undefined, interim: string | undefined): AttemptError {
  if (reason.code === 'aborted') return { code: 'aborted', message: 'close() ended the request' };
  const { limitMs } = reason;
  const within = `within ${limitMs} ms (timeoutMs)`;
  const message = answer
    ? `the answer (${answer.status}) came, but its body did not end ${within}`
    : interim
      ? `no final answer ${within}: only an interim answer came (${interim})`
      : `no answer ${within}`;
  return { code: 'timeout', message, limitMs };
}

/**
 * The attempt's error for a request that ended in `error`: the end the engine asked for (a timeout
 * named for what had come by then, `close()`), a request node:http would not write, a 101, an answer cut off, or a
 * Node error by its code.
 */
function attemptErrorOf(
  error: Error & { code?: string },
  answer: HttpAnswer | undefined,
  notSent: boolean,
  interim: string | undefined,
): AttemptError {
  if (error instanceof AbortedAttempt) return abortedError(error.reason, answer, interim);
  if (notSent)
    return {
      code: 'aborted',
      message: `the request could not be written, nothing was sent (a retry would send the same): ${error.message}`,
      ...(error.code ? { cause: error.code } : {}),
    };
  if (error.code === UPGRADE_ANSWER) return { code: 'protocol', message: error.message };
  if (answer && !error.code?.startsWith('HPE_'))
    return { code: 'connection', message: `the answer (${answer.status}) was cut off before its end` };
  return classifyNodeError(error);
}

/**
 * Sends one delivery request (its endpoint's method, no redirect followed, a connection of its own) and reports
 * its result once through `onDone`: the status when the whole answer has been read, or the error
 * (with the status when the answer was cut off after its head).
 *
 * @example
 * const handle = sendAttempt(agents.target(endpoint), body, signature, (result) => console.log(result.status ?? result.error));
 * handle.abort({ code: 'timeout', limitMs: 5000 }); // error: 'no answer within 5000 ms (timeoutMs)'
 */
export function sendAttempt(
  target: DeliveryTarget,
  body: Uint8Array | string,
  signature: string | undefined,
  onDone: (result: AttemptResult) => void,
): AttemptHandle {
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  const requestHeaders = target.headers(length, signature);
  if (requestStart.hasSubscribers) requestStart.publish({ url: target.url, signature });
  const inFlight = sendHttpRequest(
    {
      url: target.url,
      method: target.method,
      headers: target.headerList(requestHeaders),
      body,
      agent: target.agent,
      maxAnswerBytes: RESPONSE_BODY_LIMIT,
      maxReadBytes: ANSWER_READ_LIMIT,
      // Actions requests say `Accept-Encoding: gzip,deflate`: a compressed answer is logged decoded.
      decodeAnswer: true,
    },
    ({ answer, error, durationMs, notSent, interim }) => {
      const kept = answer && answer.body.length > 0 ? answer.body.toString('utf8') : undefined;
      const attemptError = error && attemptErrorOf(error, answer, notSent, interim);
      onDone({
        requestHeaders,
        status: answer?.status,
        statusText: answer?.statusText,
        responseHeaders: answer && pickedHeaders(answer),
        responseBody: attemptError ? undefined : kept,
        error: attemptError,
        durationMs,
      });
    },
  );
  return { abort: (reason) => inFlight.abort(new AbortedAttempt(reason)) };
}
