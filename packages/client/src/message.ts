import { randomUUID } from 'node:crypto';
import { type ValidationIssue } from '@hookgate/core';
import { callIssues, type CallType } from '@hookgate/core/calls';
import { normalizeTimestamp } from '@hookgate/core/calls';
import { CallTooLargeError, FieldError } from './errors.js';
import { MAX_CALL_BYTES } from './limits.js';

/** A queued message, kept serialized: the batch body is built by joining these strings. */
export interface Entry {
  /** The message's JSON, exactly as it goes into the batch. */
  readonly json: string;
  /** UTF-8 size of `json`. */
  readonly bytes: number;
  /** The message's `messageId`. */
  readonly id: string;
}

/**
 * Turns a call into a queued entry: fills in `type`, `messageId` and `timestamp` (ISO 8601 UTC with
 * ms), merges the default context, checks the required fields with core's `callIssues` and the 32 KB
 * limit. Throws `FieldError` or `CallTooLargeError`; never queues anything itself.
 */
export function buildEntry(
  type: CallType,
  params: unknown,
  defaultContext: Record<string, unknown> | undefined,
): Entry {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw new FieldError(type, callIssues(params, { type }));
  }
  const input = params as Record<string, unknown>;
  const msg: Record<string, unknown> = { type, messageId: undefined, timestamp: undefined, ...input };
  msg.type = type;

  const id = input.messageId;
  if (id === undefined) msg.messageId = randomUUID();
  else if (typeof id !== 'string' || id.length === 0) {
    throw new FieldError(type, [
      { path: '$.messageId', message: `must be a non-empty string when given (got ${show(id)})` },
    ]);
  }

  const ts = input.timestamp;
  if (ts === undefined) msg.timestamp = new Date().toISOString();
  else {
    const normalized =
      typeof ts === 'string' || typeof ts === 'number' || ts instanceof Date ? normalizeTimestamp(ts) : undefined;
    if (normalized === undefined) {
      throw new FieldError(type, [
        {
          path: '$.timestamp',
          message: `must be an ISO 8601 date-time with a zone, a valid Date or epoch milliseconds (got ${show(ts)})`,
        },
      ]);
    }
    msg.timestamp = normalized;
  }

  if (defaultContext !== undefined) {
    const own = input.context;
    // A wrong `context` is left as is, for callIssues to report.
    if (own === undefined || (typeof own === 'object' && own !== null && !Array.isArray(own))) {
      msg.context = { ...defaultContext, ...(own as Record<string, unknown> | undefined) };
    }
  }

  const issues = callIssues(msg, { type });
  if (issues.length > 0) throw new FieldError(type, issues);

  let json: string;
  try {
    json = JSON.stringify(msg);
  } catch (error) {
    throw new FieldError(type, [unserializable(msg, error)]);
  }
  const bytes = Buffer.byteLength(json);
  if (bytes > MAX_CALL_BYTES) throw new CallTooLargeError(type, bytes, MAX_CALL_BYTES);
  return { json, bytes, id: msg.messageId as string };
}

/** Finds the top-level field JSON.stringify choked on (a BigInt, a cycle…). */
function unserializable(msg: Record<string, unknown>, error: unknown): ValidationIssue {
  const reason = error instanceof Error ? error.message : String(error);
  for (const [key, value] of Object.entries(msg)) {
    try {
      JSON.stringify(value);
    } catch {
      return { path: `$.${key}`, message: `cannot be serialized to JSON: ${reason}` };
    }
  }
  return { path: '$', message: `cannot be serialized to JSON: ${reason}` };
}

function show(value: unknown): string {
  if (value instanceof Date) return 'an invalid Date';
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null) return 'null';
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- objects are answered before String(); what is left is a primitive or a function
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}
