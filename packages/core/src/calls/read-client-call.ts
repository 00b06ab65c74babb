import { describe } from '../messages/collect-issues.js';
import type { ValidationIssue } from '../messages/validation-error.js';
import { readCallTimestamp } from './call-timestamp.js';
import { callIssues, callPasses, type CallCheckOptions } from './parse-call.js';

/** Fields whose value is an identifier or a name: a string, or a number that becomes its decimal string. */
const STRING_FIELDS = [
  'userId',
  'anonymousId',
  'groupId',
  'previousId',
  'messageId',
  'event',
  'name',
  'category',
] as const;
/** Fields whose value is an object; `null` there means absent. */
const OBJECT_FIELDS = ['properties', 'traits', 'context', 'integrations'] as const;
/** Fields that may be `null` for absent and are otherwise left as sent (`type` is checked later; `sentAt` and `writeKey` belong to the envelope). */
const OTHER_NULLABLE_FIELDS = ['type', 'sentAt', 'writeKey'] as const;

/**
 * Reads one call the way the tracking API does with what official clients in other languages send,
 * in place (use it on a freshly parsed value that you own), and lists every problem left, each with
 * its JSON path (an empty list: the call is valid for core's `callIssues`):
 * - `null` in any top-level field means the field is absent (Python's client sends
 *   `"anonymousId": null` on every call, `"category": null` on a page or screen without one);
 *   a required field that is `null` is reported as `is required (got null)`.
 * - A number where an identifier or a name is expected (`userId`, `anonymousId`, `groupId`,
 *   `previousId`, `messageId`, `event`, `name`, `category`) becomes its decimal string (`42` →
 *   `"42"`). An integer beyond 2^53 − 1 cannot be kept exactly once parsed as JSON and is refused
 *   with the fix (send it as a string).
 * - `timestamp` follows `readCallTimestamp`: epoch milliseconds, ISO 8601 with or without a zone
 *   (no zone = UTC), any fraction length; it is rewritten in the sender's form (UTC, milliseconds).
 * - Then the call's required fields and kinds are checked (`callIssues`).
 * Nulls inside `properties`, `traits` and `context` are data and stay.
 *
 * @example
 * const call = JSON.parse('{"type":"track","userId":42,"anonymousId":null,"event":"E","timestamp":"2026-11-24T10:00:00.123456"}');
 * readClientCall(call); // []; call is now { type: 'track', userId: '42', event: 'E', timestamp: '2026-11-24T10:00:00.123Z' }
 */
export function readClientCall(value: unknown, options: CallCheckOptions = {}): ValidationIssue[] {
  const base = options.path ?? '$';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [{ path: base, message: `must be a JSON object (got ${describe(value)})` }];
  }
  const call = value as Record<string, unknown>;
  // The common case, a call that is valid as sent: only its timestamp may need the sender's form.
  if (callPasses(call, options.type)) {
    const ts = call.timestamp;
    if (typeof ts === 'string') call.timestamp = readCallTimestamp(ts) ?? ts;
    return [];
  }
  let issues: ValidationIssue[] | undefined;
  let nulled: string[] | undefined;
  for (const key of STRING_FIELDS) {
    const v = call[key];
    if (v === null) {
      call[key] = undefined;
      (nulled ??= []).push(`${base}.${key}`);
    } else if (typeof v === 'number') {
      if (Number.isInteger(v) && !Number.isSafeInteger(v)) {
        (issues ??= []).push({
          path: `${base}.${key}`,
          message: `is a number too large to keep exactly (${String(v)} after JSON parsing); send it as a string`,
        });
      } else if (!Number.isFinite(v)) {
        (issues ??= []).push({ path: `${base}.${key}`, message: `must be a string (got ${describe(v)})` });
      } else call[key] = String(v);
    }
  }
  for (const key of OBJECT_FIELDS) if (call[key] === null) call[key] = undefined;
  for (const key of OTHER_NULLABLE_FIELDS) if (call[key] === null) call[key] = undefined;
  const ts = call.timestamp;
  if (ts === null) call.timestamp = undefined;
  else if (ts !== undefined) {
    const read = readCallTimestamp(ts);
    if (read === undefined) {
      (issues ??= []).push({
        path: `${base}.timestamp`,
        message: `must be an ISO 8601 date-time (no zone is read as UTC) or epoch milliseconds (got ${describe(ts)})`,
      });
    } else call.timestamp = read;
  }
  const rest = callIssues(call, options);
  if (issues === undefined && rest.length === 0) return rest;
  const all = issues ?? [];
  for (const issue of rest) {
    if (all.some((i) => i.path === issue.path)) continue;
    const wasNull = nulled?.includes(issue.path) && issue.message.startsWith('must be a string (got nothing)');
    all.push(wasNull ? { path: issue.path, message: 'is required (got null)' } : issue);
  }
  return all;
}
