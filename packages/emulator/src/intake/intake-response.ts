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
  token_required: 401,
  forbidden_origin: 403,
  forbidden_host: 403,
  not_found: 404,
  method_not_allowed: 405,
  unsupported_encoding: 415,
  internal_error: 500,
  emulator_closed: 503,
  log_full: 503,
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
  /** When every call of the request was refused: each call, as in `IntakePartialBody.refused`. */
  refused?: RefusedCallView[];
}

/**
 * One refused call in an answer: its index in the request (0 on a single-call route), the id of the
 * `filtered` delivery record that keeps it in the log (absent when its type is unknown, or the engine
 * records no refusals), and every problem with its JSON path.
 *
 * @example
 * const view: RefusedCallView = { index: 1, recordId: 'dlv_7', issues: [{ path: '$.batch[1].event', message: 'is required (got null)' }] };
 */
export interface RefusedCallView {
  index: number;
  recordId?: string;
  issues: ValidationIssue[];
}

/**
 * The body of a 200 for a request of which some calls were refused (the others are accepted and
 * delivered): `{ success: true, accepted, refused: [{ index, recordId?, issues }], message }`. The
 * tracking API answers 200 here too; the extra fields tell a client what was left out.
 *
 * @example
 * const body = (await res.json()) as IntakePartialBody;
 * for (const r of body.refused ?? []) console.warn(`call ${r.index} refused:`, r.issues);
 */
export interface IntakePartialBody {
  success: true;
  accepted: number;
  refused: RefusedCallView[];
  message: string;
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
 * The intake's 200 when some calls of a request were refused and the others accepted: `accepted`,
 * `refused` (index, record id, issues) and a one-line `message`.
 *
 * @example
 * intakePartial(2, [{ index: 1, issues: [{ path: '$.batch[1].event', message: 'is required (got null)' }] }]).status; // 200
 */
export function intakePartial(accepted: number, refused: RefusedCallView[]): IntakeResponse {
  const total = accepted + refused.length;
  const first = refused[0]?.issues[0];
  const firstText = first ? `: ${first.path} ${first.message}` : '';
  const more = refused.length > 1 ? ` (see refused for all ${refused.length})` : '';
  const body: IntakePartialBody = {
    success: true,
    accepted,
    refused,
    message: `${refused.length} of ${total} calls refused${firstText}${more}; the other ${accepted} ${accepted === 1 ? 'was' : 'were'} accepted.`,
  };
  return { status: 200, code: 'ok', headers: { 'content-type': JSON_TYPE }, body: JSON.stringify(body) };
}

/**
 * The intake's answer to a refused request: the status of `code`, and `{ success: false, code, message, issues? }`.
 *
 * @example
 * intakeError('invalid_call', 'The batch has 1 invalid call.', [{ path: '$.batch[0].event', message: 'is required' }]);
 */
export function intakeError(
  code: Exclude<IntakeCode, 'ok'>,
  message: string,
  issues?: ValidationIssue[],
  refused?: RefusedCallView[],
): IntakeResponse {
  const body: IntakeErrorBody = { success: false, code, message };
  if (issues && issues.length > 0) body.issues = issues;
  if (refused && refused.length > 0) body.refused = refused;
  const headers: Record<string, string> = { 'content-type': JSON_TYPE };
  if (code === 'emulator_closed' || code === 'log_full') headers['retry-after'] = '5';
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
