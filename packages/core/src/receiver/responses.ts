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
