import { utf8ByteLength } from './utf8-length.js';

/**
 * Stable codes in the receiver's JSON answers; each maps to one status of the status table.
 *
 * @example
 * RECEIVER_CODES.invalid_signature; // 401
 * const retried = (code: ReceiverCode) => RECEIVER_CODES[code] >= 500; // the sender retries 5xx
 */
export const RECEIVER_CODES = {
  ok: 200,
  duplicate: 200,
  unhandled: 200,
  invalid_json: 400,
  invalid_message: 400,
  invalid_payload: 400,
  missing_signature: 401,
  invalid_signature: 401,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  batch_refused: 422,
  message_unstorable: 422,
  handler_error: 500,
  body_already_read: 500,
  deadline_exceeded: 503,
  in_flight: 503,
  store_unavailable: 503,
  queue_unavailable: 503,
} as const;

/**
 * One of the receiver's answer codes.
 *
 * @example
 * const code: ReceiverCode = (await receiver.handle(input)).code;
 * if (code === 'invalid_signature') console.warn('check the shared secret');
 */
export type ReceiverCode = keyof typeof RECEIVER_CODES;

/**
 * What the receiver answers: a status, headers, and a JSON body text.
 *
 * @example
 * const r: ReceiverResponse = await receiver.handle({ method: 'POST', headers: request.headers, rawBody });
 * return new Response(r.body, { status: r.status, headers: r.headers });
 */
export interface ReceiverResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The stable code of the answer (also in the body). */
  code: ReceiverCode;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Builds the receiver's JSON answer for a code.
 *
 * @example
 * receiverResponse('invalid_message', 'The body is not a valid webhook message.');
 * // { status: 400, code: 'invalid_message', headers: { 'content-type': ... }, body: '{"ok":false,...}' }
 */
export function receiverResponse(
  code: ReceiverCode,
  message: string,
  extra: Record<string, unknown> = {},
): ReceiverResponse {
  const status = RECEIVER_CODES[code];
  const ok = status < 300;
  const headers: Record<string, string> = { 'content-type': JSON_TYPE };
  if (code === 'method_not_allowed') headers.allow = 'POST';
  if (status === 503) headers['retry-after'] = '5';
  return { status, code, headers, body: JSON.stringify({ ok, code, message, ...extra }) };
}

/**
 * An answer whose bytes never change (the 200 of a handled message, the usual refusals), made once
 * per receiver: its status, its headers with their length, its body; written as it is (internal).
 * Read-only: `handle`, `accept` and `run` give callers a copy of their own (`ownAnswer`).
 *
 * @example
 * const handled = new FixedAnswer(receiverResponse('ok', 'Handled.'));
 * res.writeHead(handled.status, handled.wireHeaders).end(handled.body);
 */
export class FixedAnswer implements ReceiverResponse {
  readonly status: number;
  readonly code: ReceiverCode;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** `headers` and the body's `content-length`, as they are written. */
  readonly wireHeaders: Readonly<Record<string, string>>;

  constructor(response: ReceiverResponse) {
    this.status = response.status;
    this.code = response.code;
    this.body = response.body;
    this.headers = Object.freeze({ ...response.headers });
    this.wireHeaders = Object.freeze({ ...response.headers, 'content-length': String(utf8ByteLength(response.body)) });
  }
}

/**
 * An answer's headers as they are written: its own, and the body's `content-length` (counted once for
 * a `FixedAnswer`, per answer for the others).
 *
 * @example
 * res.writeHead(answer.status, answerHeaders(answer)).end(answer.body);
 */
export function answerHeaders(response: ReceiverResponse): Readonly<Record<string, string>> {
  if (response instanceof FixedAnswer) return response.wireHeaders;
  return { ...response.headers, 'content-length': String(utf8ByteLength(response.body)) };
}

/**
 * The answer as a caller's own object (a `FixedAnswer` copied; any other is already one of its own).
 *
 * @example
 * return ownAnswer(await handOff(setup, accepted, handler)); // `handle`'s caller may change it
 */
export function ownAnswer(response: ReceiverResponse): ReceiverResponse {
  if (!(response instanceof FixedAnswer)) return response;
  const { status, code, headers, body } = response;
  return { status, code, headers: { ...headers }, body };
}

/**
 * The answer to a body still arriving at the deadline: 503 (the sender retries), and the connection
 * is closed after it.
 *
 * @example
 * writeNodeResponse(res, bodyDeadlineResponse(4000), req);
 */
export function bodyDeadlineResponse(deadlineMs: number): ReceiverResponse {
  const response = receiverResponse(
    'deadline_exceeded',
    `The body was still arriving ${deadlineMs} ms after the request did; it is not handled, and the sender will retry.`,
  );
  return { ...response, headers: { ...response.headers, connection: 'close' } };
}
