import type { ValidationIssue } from '@hookgate/core';

/**
 * Stable codes of the intake's answers, each with its HTTP status.
 *
 * @example
 * if (res.status === INTAKE_CODES.call_too_large) console.error((await res.json()).issues);
 */
export const INTAKE_CODES = {
  ok: 200,
  invalid_json: 400,
  invalid_encoding: 400,
  invalid_batch: 400,
  invalid_call: 400,
  call_too_large: 400,
  batch_too_large: 400,
  invalid_query: 400,
  missing_write_key: 401,
  unknown_write_key: 401,
  invalid_authorization: 401,
  not_found: 404,
  method_not_allowed: 405,
  unsupported_encoding: 415,
  internal_error: 500,
  emulator_closed: 503,
} as const;

/** One of the intake's answer codes. @example const code: IntakeCode = 'unknown_write_key'; */
export type IntakeCode = keyof typeof INTAKE_CODES;

/** What the intake answers: a status, headers and a JSON body text. */
export interface IntakeResponse {
  status: number;
  code: IntakeCode;
  headers: Record<string, string>;
  body: string;
}

/**
 * The JSON body of every refusal: `{ success: false, code, message, issues? }`.
 *
 * @example
 * const body = (await res.json()) as IntakeErrorBody;
 * for (const i of body.issues ?? []) console.log(i.path, i.message);
 */
export interface IntakeErrorBody {
  success: false;
  code: Exclude<IntakeCode, 'ok'>;
  message: string;
  issues?: ValidationIssue[];
}

const JSON_TYPE = 'application/json; charset=utf-8';
const OK_BODY = JSON.stringify({ success: true });

/**
 * The intake's answer to an accepted call or batch: 200 `{ "success": true }`, as the tracking API.
 *
 * @example
 * const r = intakeOk(); // r.status === 200, r.body === '{"success":true}'
 */
export function intakeOk(): IntakeResponse {
  return { status: 200, code: 'ok', headers: { 'content-type': JSON_TYPE }, body: OK_BODY };
}

/**
 * The intake's answer to a refused request: the status of `code`, and `{ success: false, code, message, issues? }`.
 *
 * @example
 * intakeError('invalid_call', 'The batch has 1 invalid call.', [{ path: '$.batch[0].event', message: 'is required' }]);
 */
export function intakeError(code: Exclude<IntakeCode, 'ok'>, message: string, issues?: ValidationIssue[]): IntakeResponse {
  const body: IntakeErrorBody = { success: false, code, message };
  if (issues && issues.length > 0) body.issues = issues;
  const headers: Record<string, string> = { 'content-type': JSON_TYPE };
  if (code === 'emulator_closed') headers['retry-after'] = '5';
  if (code === 'missing_write_key' || code === 'unknown_write_key' || code === 'invalid_authorization') {
    headers['www-authenticate'] = 'Basic realm="hookgate intake"';
  }
  return { status: INTAKE_CODES[code], code, headers, body: JSON.stringify(body) };
}

/**
 * A JSON answer with any status and value (the inspection routes).
 *
 * @example
 * jsonResponse(200, { ok: true });
 */
export function jsonResponse(status: number, value: unknown): IntakeResponse {
  return { status, code: 'ok', headers: { 'content-type': JSON_TYPE }, body: JSON.stringify(value) };
}
