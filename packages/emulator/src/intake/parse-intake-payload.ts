import { callIssues, type Call, type CallType, type ValidationIssue } from '@hookgate/core';
import { intakeError, type IntakeResponse } from './intake-response.js';
import { jsonSizeBound } from './json-size-bound.js';

/** What a request's URL says about its body: one call of a type, or a batch. */
export type IntakeRoute = { kind: 'call'; type: CallType } | { kind: 'batch' };

/** Limits applied while parsing. */
export interface PayloadLimits {
  /** Largest call, in UTF-8 bytes of `JSON.stringify(call)`. */
  maxCallBytes: number;
}

/** The calls of an accepted body, ready for the engine, and the write key the body carried, if any. */
export type ParsedPayload =
  | { ok: true; calls: Call[]; bodyWriteKey: string | undefined }
  | { ok: false; response: IntakeResponse };

/** Envelope fields a client may put beside (or, for a single call, inside) the calls; never part of a call. */
const ENVELOPE_KEYS = ['writeKey', 'sentAt'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : typeof v;
}

/**
 * The call's size in UTF-8 bytes of `JSON.stringify(call)` when it could be over `limit`; otherwise
 * a cheap upper bound at most `limit` (so "size > limit" is exact without serializing small calls).
 */
function callSize(call: unknown, limit: number): number {
  const bound = jsonSizeBound(call, limit);
  return bound <= limit ? bound : Buffer.byteLength(JSON.stringify(call) ?? '', 'utf8');
}

/**
 * Merges the batch-level object under the call's own (shallow; the call's keys win), as an object
 * spread would, but with plain stores (a second spread into one literal takes V8's slow path).
 * A `__proto__` key of parsed JSON is an own property and stays one (defined, never assigned).
 */
function mergeUnder(batchLevel: Record<string, unknown>, own: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  copyInto(out, batchLevel);
  if (own !== undefined) copyInto(out, own as Record<string, unknown>);
  return out;
}

function copyInto(out: Record<string, unknown>, from: Record<string, unknown>): void {
  for (const key of Object.keys(from)) {
    if (key === '__proto__') Object.defineProperty(out, key, { value: from[key], enumerable: true, writable: true, configurable: true });
    else out[key] = from[key];
  }
}

/**
 * Makes a freshly parsed item the call handed to the engine, in place (the intake owns the parsed
 * body): its `type`, the batch-level fields merged in. Envelope fields are left out by copying, not
 * `delete` (which would slow every later property access on the object).
 */
function toCall(
  item: Record<string, unknown>,
  type: CallType,
  context: Record<string, unknown> | undefined,
  integrations: Record<string, unknown> | undefined,
): Call {
  let call = item;
  if ('writeKey' in item || 'sentAt' in item) {
    // (ENVELOPE_KEYS spelled out: no closure per call)
    call = {};
    for (const key of Object.keys(item)) if (!(ENVELOPE_KEYS as readonly string[]).includes(key)) call[key] = item[key];
  }
  call.type = type;
  if (context !== undefined) call.context = mergeUnder(context, item.context);
  if (integrations !== undefined) call.integrations = mergeUnder(integrations, item.integrations);
  return call as Call;
}

function refuse(issues: ValidationIssue[], sizeIssues: number, total: number, what: 'batch' | 'call'): IntakeResponse {
  const nothing = what === 'batch' ? ' Nothing of this batch was accepted; fix these and send it again.' : '';
  if (sizeIssues > 0) {
    const first = issues[0] as ValidationIssue;
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
    return intakeError('call_too_large', `Call ${first.path} ${first.message}${more}.${nothing}`, issues);
  }
  const list = issues.map((i) => `${i.path} ${i.message}`).join('; ');
  const head = what === 'batch' ? `${countCalls(issues)} of ${total} call${total === 1 ? '' : 's'} invalid` : 'The call is invalid';
  return intakeError('invalid_call', `${head}: ${list}.${nothing}`, issues);
}

function countCalls(issues: ValidationIssue[]): number {
  return new Set(issues.map((i) => /^\$\.batch\[\d+\]/.exec(i.path)?.[0] ?? i.path)).size;
}

/**
 * Checks a parsed intake body and turns it into calls for the engine, all or nothing: the size of
 * every call (32 KB), the required fields of every call (core's `callIssues`), and the batch shape.
 * Batch-level `context` and `integrations` are merged (shallowly, the call's own keys win) into each
 * call; envelope fields (`writeKey`, `sentAt`) are removed from the calls.
 *
 * @example
 * const parsed = parseIntakePayload({ batch: [{ type: 'track', userId: 'u1', event: 'A' }] }, { kind: 'batch' }, { maxCallBytes: 32 * 1024 });
 * if (parsed.ok) for (const call of parsed.calls) emulator.ingest(call, { writeKey });
 */
export function parseIntakePayload(value: unknown, route: IntakeRoute, limits: PayloadLimits): ParsedPayload {
  if (!isObject(value)) {
    return {
      ok: false,
      response: intakeError(
        route.kind === 'batch' ? 'invalid_batch' : 'invalid_call',
        `The body must be a JSON object${route.kind === 'batch' ? ' such as {"batch":[...]}' : ''} (got ${kindOf(value)}).`,
        [{ path: '$', message: `must be a JSON object (got ${kindOf(value)})` }],
      ),
    };
  }
  const bodyWriteKey = typeof value.writeKey === 'string' && value.writeKey.length > 0 ? value.writeKey : undefined;

  if (route.kind === 'call') {
    const issues: ValidationIssue[] = [];
    const size = callSize(value, limits.maxCallBytes);
    if (size > limits.maxCallBytes) {
      issues.push({ path: '$', message: `is ${size} bytes, over the limit of ${limits.maxCallBytes} bytes (32 KB per call)` });
      return { ok: false, response: refuse(issues, 1, 1, 'call') };
    }
    if (value.type !== undefined && value.type !== route.type) {
      issues.push({
        path: '$.type',
        message: `must be ${JSON.stringify(route.type)} on /v1/${route.type}, or absent (got ${JSON.stringify(value.type)}); post other types to their own path or to /v1/batch`,
      });
    } else {
      issues.push(...callIssues(value, { type: route.type }));
    }
    if (issues.length > 0) return { ok: false, response: refuse(issues, 0, 1, 'call') };
    return { ok: true, calls: [toCall(value, route.type, undefined, undefined)], bodyWriteKey };
  }

  const batch = value.batch;
  const shape: ValidationIssue[] = [];
  if (!Array.isArray(batch)) {
    shape.push({ path: '$.batch', message: batch === undefined ? 'is required: an array of calls' : `must be an array of calls (got ${kindOf(batch)})` });
  }
  for (const key of ['context', 'integrations'] as const) {
    if (value[key] !== undefined && !isObject(value[key])) {
      shape.push({ path: `$.${key}`, message: `must be an object when given (got ${kindOf(value[key])})` });
    }
  }
  if (shape.length > 0) {
    return {
      ok: false,
      response: intakeError('invalid_batch', `The batch is malformed: ${shape.map((i) => `${i.path} ${i.message}`).join('; ')}.`, shape),
    };
  }

  const items = batch as unknown[];
  const sizeIssues: ValidationIssue[] = [];
  const fieldIssues: ValidationIssue[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const path = `$.batch[${i}]`;
    const size = callSize(item, limits.maxCallBytes);
    if (size > limits.maxCallBytes) {
      sizeIssues.push({ path, message: `is ${size} bytes, over the limit of ${limits.maxCallBytes} bytes (32 KB per call)` });
      continue;
    }
    const found = callIssues(item, { path });
    for (const issue of found) fieldIssues.push(issue);
  }
  if (sizeIssues.length > 0 || fieldIssues.length > 0) {
    return { ok: false, response: refuse([...sizeIssues, ...fieldIssues], sizeIssues.length, items.length, 'batch') };
  }
  const context = value.context as Record<string, unknown> | undefined;
  const integrations = value.integrations as Record<string, unknown> | undefined;
  const calls = items.map((item) => {
    const record = item as Record<string, unknown>;
    return toCall(record, record.type as CallType, context, integrations);
  });
  return { ok: true, calls, bodyWriteKey };
}
