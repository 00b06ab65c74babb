/** Stable codes in the receiver's JSON answers; each maps to one status of the status table. */
export const RECEIVER_CODES = {
  ok: 200,
  duplicate: 200,
  unhandled: 200,
  invalid_json: 400,
  invalid_message: 400,
  missing_signature: 401,
  invalid_signature: 401,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  handler_error: 500,
  deadline_exceeded: 503,
  in_flight: 503,
  store_unavailable: 503,
} as const;

/** One of the receiver's answer codes. */
export type ReceiverCode = keyof typeof RECEIVER_CODES;

/** What the receiver answers: a status, headers, and a JSON body text. */
export interface ReceiverResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The stable code of the answer (also in the body). */
  code: ReceiverCode;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** Builds the receiver's JSON answer for a code. */
export function receiverResponse(code: ReceiverCode, message: string, extra: Record<string, unknown> = {}): ReceiverResponse {
  const status = RECEIVER_CODES[code];
  const ok = status < 300;
  const headers: Record<string, string> = { 'content-type': JSON_TYPE };
  if (code === 'method_not_allowed') headers.allow = 'POST';
  if (status === 503) headers['retry-after'] = '5';
  return { status, code, headers, body: JSON.stringify({ ok, code, message, ...extra }) };
}
