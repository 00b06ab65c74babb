import { type ValidationIssue } from '@hookgate/core';
import { CALL_TYPES, readClientCall, type Call, type CallType } from '@hookgate/core/calls';
import { intakeError, type IntakeResponse, type RefusedCallView } from './intake-response.js';
import { tooDeepAt } from './json-depth.js';
import { jsonSizeBound } from './json-size-bound.js';
import { MAX_CALL_DEPTH } from './limits.js';

/** What a request's URL says about its body: one call of a type, or a batch. */
export type IntakeRoute = { kind: 'call'; type: CallType } | { kind: 'batch' };

/** Limits applied while parsing. */
export interface PayloadLimits {
  /** Largest call, in UTF-8 bytes of `JSON.stringify(call)`. */
  maxCallBytes: number;
}

/**
 * A call of the body that was refused (the others are accepted): its index in the body (0 for a
 * single-call route), its type when it names a known one, whether it was refused for its size, and
 * every problem with its JSON path.
 *
 * @example
 * const r: RefusedCall = { index: 2, type: 'track', tooLarge: false, issues: [{ path: '$.batch[2].event', message: 'is required (got null)' }] };
 */
export interface RefusedCall {
  index: number;
  type: CallType | undefined;
  tooLarge: boolean;
  issues: ValidationIssue[];
}

/**
 * A body read: the calls accepted, ready for the engine (in body order, with `indexes[i]` the
 * place of `calls[i]` in the body), the calls refused, and the write key the body carried, if any;
 * or the answer refusing the whole body (not an object, no batch array, a batch-level `context`
 * or `integrations` that is not an object or nests deeper than a call may).
 */
export type ParsedPayload =
  | { ok: true; calls: Call[]; indexes: number[]; refused: RefusedCall[]; bodyWriteKey: string | undefined }
  | { ok: false; response: IntakeResponse };

const CALL_SET: ReadonlySet<string> = new Set(CALL_TYPES);

/** Envelope fields a client may put beside (or, for a single call, inside) the calls; a `sentAt` string or number is kept on each call (see `toCall`). */
const ENVELOPE_KEYS = ['writeKey', 'sentAt'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : typeof v;
}

/**
 * Why a call is refused for its form before anything reads it (nested deeper than `MAX_CALL_DEPTH`,
 * or larger than `limit` bytes of `JSON.stringify(call)`), or `undefined`. Never throws: a small call
 * is bounded without serializing it (and is then known to be shallow: the bound gives up past 64
 * levels); any other is checked for depth with an explicit stack before it is serialized to be measured.
 */
function formIssue(
  call: unknown,
  limit: number,
  path: string,
): { tooLarge: boolean; issue: ValidationIssue } | undefined {
  if (jsonSizeBound(call, limit) <= limit) return undefined;
  const deep = tooDeepAt(call, MAX_CALL_DEPTH, path);
  if (deep !== undefined) {
    return {
      tooLarge: false,
      issue: {
        path: deep,
        message: `nests deeper than ${MAX_CALL_DEPTH} levels of objects and arrays (the limit per call); flatten it or send it as a string`,
      },
    };
  }
  const size = Buffer.byteLength(JSON.stringify(call) ?? '', 'utf8');
  return size > limit ? { tooLarge: true, issue: tooLargeIssue(path, size, limit) } : undefined;
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
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: from[key], enumerable: true, writable: true, configurable: true });
    else out[key] = from[key];
  }
}

/**
 * Makes a freshly parsed item the call handed to the engine, in place (the intake owns the parsed
 * body): its `type`, the batch-level fields merged in. `writeKey` is left out by copying, not
 * `delete` (which would slow every later property access on the object). `sentAt` stays when it is a
 * string or epoch milliseconds: the call's own, else the envelope's (`{ batch, sentAt }`, as analytics-node sends it); the
 * Webhooks (Actions) event carries it, classic messages never read it.
 */
function toCall(
  item: Record<string, unknown>,
  type: CallType,
  context: Record<string, unknown> | undefined,
  integrations: Record<string, unknown> | undefined,
  sentAt: string | number | undefined,
): Call {
  let call = item;
  const own = item.sentAt;
  const ownKept = typeof own === 'string' || typeof own === 'number';
  if ('writeKey' in item || ('sentAt' in item && !ownKept)) {
    // (ENVELOPE_KEYS spelled out: no closure per call)
    call = {};
    for (const key of Object.keys(item)) if (!(ENVELOPE_KEYS as readonly string[]).includes(key)) call[key] = item[key];
  }
  if (ownKept) call.sentAt = own;
  else if (sentAt !== undefined) call.sentAt = sentAt;
  call.type = type;
  if (context !== undefined) call.context = mergeUnder(context, item.context);
  if (integrations !== undefined) call.integrations = mergeUnder(integrations, item.integrations);
  return call as Call;
}

/**
 * The answer when every call of the body was refused (nothing accepted): 400, every problem listed.
 *
 * @example
 * if (parsed.ok && parsed.calls.length === 0 && parsed.refused.length > 0) send(res, refusedAll(parsed.refused, route));
 */
export function refusedAll(refused: RefusedCall[], route: IntakeRoute, views?: RefusedCallView[]): IntakeResponse {
  const issues = refused.flatMap((r) => r.issues);
  const what = route.kind === 'batch' ? 'batch' : 'call';
  const nothing = what === 'batch' ? ' Nothing of this batch was accepted; fix these and send it again.' : '';
  if (refused.every((r) => r.tooLarge)) {
    const first = issues[0] as ValidationIssue;
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
    return intakeError('call_too_large', `Call ${first.path} ${first.message}${more}.${nothing}`, issues, views);
  }
  const list = issues.map((i) => `${i.path} ${i.message}`).join('; ');
  const head =
    what === 'batch'
      ? `${refused.length} of ${refused.length} call${refused.length === 1 ? '' : 's'} invalid`
      : 'The call is invalid';
  return intakeError('invalid_call', `${head}: ${list}.${nothing}`, issues, views);
}

/**
 * Where the batch-level `context` or `integrations` nests too deep, or `undefined`. They are merged
 * into every call, at the place of the call's own fields, so the call's rule applies: seen from an
 * object holding just them (level 1, as the call is), at most `MAX_CALL_DEPTH` levels. Checked with an
 * explicit stack (`tooDeepAt`), so any depth is a clear refusal, never a stack overflow later.
 */
function batchLevelTooDeep(body: Record<string, unknown>): ValidationIssue | undefined {
  const path = tooDeepAt({ context: body.context, integrations: body.integrations }, MAX_CALL_DEPTH, '$');
  if (path === undefined) return undefined;
  return {
    path,
    message: `nests deeper than ${MAX_CALL_DEPTH} levels of objects and arrays (the limit per call, which the batch-level fields are merged into); flatten it or send it as a string`,
  };
}

function tooLargeIssue(path: string, size: number, limit: number): ValidationIssue {
  return { path, message: `is ${size} bytes, over the limit of ${limit} bytes (32 KB per call)` };
}

function knownType(value: unknown): CallType | undefined {
  return typeof value === 'string' && CALL_SET.has(value) ? (value as CallType) : undefined;
}

/**
 * Reads a parsed intake body into calls for the engine, call by call, as leniently as the tracking
 * API (core's `readClientCall`: `null` is absent, numeric ids become strings, timestamps in any
 * documented form become UTC with milliseconds): a call over 32 KB or with a problem is refused
 * alone, with every problem and its path, and the others are accepted. Batch-level `context` and
 * `integrations` are merged (shallowly, the call's own keys win) into each call; `writeKey` is removed
 * from the calls, and each keeps its `sentAt` (a string or epoch milliseconds) (its own, else the batch's). Only a body that is no batch at all is refused
 * whole.
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
    const form = formIssue(value, limits.maxCallBytes, '$');
    if (form !== undefined) {
      const refused = { index: 0, type: route.type, tooLarge: form.tooLarge, issues: [form.issue] };
      return { ok: true, calls: [], indexes: [], refused: [refused], bodyWriteKey };
    }
    if (value.type !== undefined && value.type !== null && value.type !== route.type) {
      const issue = {
        path: '$.type',
        message: `must be ${JSON.stringify(route.type)} on /v1/${route.type}, or absent (got ${JSON.stringify(value.type)}); post other types to their own path or to /v1/batch`,
      };
      return {
        ok: true,
        calls: [],
        indexes: [],
        refused: [{ index: 0, type: route.type, tooLarge: false, issues: [issue] }],
        bodyWriteKey,
      };
    }
    const issues = readClientCall(value, { type: route.type });
    if (issues.length > 0)
      return {
        ok: true,
        calls: [],
        indexes: [],
        refused: [{ index: 0, type: route.type, tooLarge: false, issues }],
        bodyWriteKey,
      };
    return {
      ok: true,
      calls: [toCall(value, route.type, undefined, undefined, undefined)],
      indexes: [0],
      refused: [],
      bodyWriteKey,
    };
  }

  const batch = value.batch;
  const shape: ValidationIssue[] = [];
  if (!Array.isArray(batch)) {
    shape.push({
      path: '$.batch',
      message:
        batch === undefined ? 'is required: an array of calls' : `must be an array of calls (got ${kindOf(batch)})`,
    });
  }
  for (const key of ['context', 'integrations'] as const) {
    if (value[key] !== undefined && value[key] !== null && !isObject(value[key])) {
      shape.push({ path: `$.${key}`, message: `must be an object when given (got ${kindOf(value[key])})` });
    }
  }
  if (shape.length === 0) {
    const deep = batchLevelTooDeep(value);
    if (deep !== undefined) shape.push(deep);
  }
  if (shape.length > 0) {
    return {
      ok: false,
      response: intakeError(
        'invalid_batch',
        `The batch is malformed: ${shape.map((i) => `${i.path} ${i.message}`).join('; ')}.`,
        shape,
      ),
    };
  }

  const items = batch as unknown[];
  const context = (value.context ?? undefined) as Record<string, unknown> | undefined;
  const integrations = (value.integrations ?? undefined) as Record<string, unknown> | undefined;
  const sentAt = typeof value.sentAt === 'string' || typeof value.sentAt === 'number' ? value.sentAt : undefined;
  const calls: Call[] = [];
  const indexes: number[] = [];
  const refused: RefusedCall[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const path = `$.batch[${i}]`;
    const form = formIssue(item, limits.maxCallBytes, path);
    if (form !== undefined) {
      refused.push({
        index: i,
        type: knownType((item as { type?: unknown } | null)?.type),
        tooLarge: form.tooLarge,
        issues: [form.issue],
      });
      continue;
    }
    const issues = readClientCall(item, { path });
    if (issues.length > 0) {
      refused.push({ index: i, type: knownType((item as { type?: unknown } | null)?.type), tooLarge: false, issues });
      continue;
    }
    const record = item as Record<string, unknown>;
    calls.push(toCall(record, record.type as CallType, context, integrations, sentAt));
    indexes.push(i);
  }
  return { ok: true, calls, indexes, refused, bodyWriteKey };
}
