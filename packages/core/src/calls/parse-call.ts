import { collectIssues, describe } from '../messages/collect-issues.js';
import { compileCheck } from '../messages/compile-check.js';
import { ValidationError, type ValidationIssue } from '../messages/validation-error.js';
import { CALL_TYPES, callSchemas, type CallType } from './schemas.js';
import type { Call } from './types.js';

const CALL_SET: ReadonlySet<string> = new Set(CALL_TYPES);

/** Whether a call carries a non-empty string identifier (a module function: no closure per check). */
function hasId(v: Record<string, unknown>, key: string): boolean {
  const id = v[key];
  return typeof id === 'string' && id.length > 0;
}

/**
 * Options of `callIssues` and `parseCall`.
 *
 * @example
 * const issues = batch.flatMap((call, i) => callIssues(call, { path: `$.batch[${i}]` }));
 * const track = parseCall(body, { type: 'track' }); // the URL said track
 */
export interface CallCheckOptions {
  /** JSON path prefix in the issues, e.g. `$.batch[3]`. Default `$`. */
  path?: string;
  /** The call type when the value carries none (the URL said it). */
  type?: CallType;
}

/**
 * Lists every problem of a call (the tracking API's required fields): userId or anonymousId on identify,
 * track, page, screen and group; `event` on track; `groupId` on group; `userId` and `previousId` on
 * alias. Page accepts anonymousId alone, as the tracking API does.
 *
 * @example
 * callIssues({ type: 'track', userId: 'u1' }); // [{ path: '$.event', message: 'is required' }]
 */
export function callIssues(value: unknown, options: CallCheckOptions = {}): ValidationIssue[] {
  const base = options.path ?? '$';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [{ path: base, message: `must be a JSON object (got ${describe(value)})` }];
  }
  const v = value as Record<string, unknown>;
  const type = v.type ?? options.type;
  if (typeof type !== 'string' || !CALL_SET.has(type)) {
    return [{ path: `${base}.type`, message: `must be one of ${CALL_TYPES.join(', ')} (got ${describe(type)})` }];
  }
  const issues = collectIssues(callSchemas[type as CallType], value, base);
  if (type === 'alias') {
    if (!hasId(v, 'userId') && !issues.some((i) => i.path === `${base}.userId`))
      issues.push({ path: `${base}.userId`, message: 'is required on alias: the new identifier' });
  } else if (!hasId(v, 'userId') && !hasId(v, 'anonymousId')) {
    issues.push({ path: `${base}.userId`, message: 'userId or anonymousId is required' });
  }
  return issues;
}

/**
 * Whether `callIssues` would find nothing, answered by the compiled check alone (no error list is
 * built): the fast path for the common, valid call. Internal to core.
 */
export function callPasses(value: unknown, type: CallType | undefined): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  const t = v.type ?? type;
  if (typeof t !== 'string' || !CALL_SET.has(t) || !compileCheck(callSchemas[t as CallType])(value)) return false;
  return t === 'alias' ? hasId(v, 'userId') : hasId(v, 'userId') || hasId(v, 'anonymousId');
}

/**
 * Validates a call and returns it typed (with `type` filled in); throws a `ValidationError`
 * listing every problem.
 *
 * @example
 * const call = parseCall({ userId: 'u1', event: 'Signed Up' }, { type: 'track' });
 */
export function parseCall(value: unknown, options: CallCheckOptions = {}): Call {
  const issues = callIssues(value, options);
  if (issues.length > 0) throw new ValidationError(issues, 'call');
  const v = value as Record<string, unknown>;
  return (v.type ? v : { ...v, type: options.type }) as Call;
}
