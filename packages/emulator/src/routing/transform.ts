import { randomUUID } from 'node:crypto';
import { messageIssues, type DeleteMessage, type IdentifyMessage, type WebhookMessage } from '@hookgate/core';
import { type Call } from '@hookgate/core/calls';
import { normalizeTimestamp } from '@hookgate/core/calls';

/**
 * How calls become messages.
 *
 * @example
 * const options: TransformOptions = { includeIds: false, anonymousCalls: 'filter' };
 */
export interface TransformOptions {
  /** Add `messageId` (generated when the call has none) and `anonymousId` (when the call has one). */
  includeIds: boolean;
  /** What to do with a call that has only `anonymousId`. */
  anonymousCalls: 'filter' | 'anonymousId-as-userId';
}

/**
 * A built message, or why none could be built (the record is then `filtered` with this reason).
 *
 * @example
 * const r: TransformResult = callToMessage(call, Date.now(), options);
 * if (!r.ok) console.log(r.reason);
 */
export type TransformResult = { ok: true; message: WebhookMessage } | { ok: false; reason: string };

/**
 * The reason recorded for a call without userId under `anonymousCalls: 'filter'`.
 *
 * @example
 * emulator.track({ anonymousId: 'a1', event: 'E' }).reason === NO_USER_ID_REASON; // true
 */
export const NO_USER_ID_REASON =
  "no userId: the Webhooks message needs a userId; set anonymousCalls: 'anonymousId-as-userId' to deliver it";

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Timestamps already in the sender's exact form that `normalizeTimestamp` returns unchanged: UTC with
 * milliseconds, and fields in range (day 29–31 and anything Date.parse would roll over take the slow path).
 * One regular expression instead of `Date.parse` + `toISOString` per call.
 */
const CANONICAL_TIMESTAMP = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

function isNonEmpty(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0;
}

/**
 * Turns a received call into the message the Webhooks destination delivers, in the exact shapes
 * of the Webhooks messages: `version: 1`; `userId` (none on alias, which carries `"Previous ID"` and `"User ID"`);
 * `timestamp` in UTC with milliseconds — the call's own (historical ones kept, Go's `+0000` read) or
 * the receipt time; `context` kept. Page `name`/`category` and screen `properties` are not part of
 * the Webhooks messages' shapes and are not sent. The result is checked against the strict message schema.
 *
 * @example
 * callToMessage({ type: 'alias', previousId: 'anon_1', userId: 'u1' }, Date.now(), { includeIds: false, anonymousCalls: 'filter' });
 * // { ok: true, message: { version: 1, type: 'alias', 'Previous ID': 'anon_1', 'User ID': 'u1', timestamp: '…' } }
 */
export function callToMessage(call: Call, receivedAtMs: number, options: TransformOptions): TransformResult {
  const ts = call.timestamp;
  const timestamp =
    (typeof ts === 'string' && CANONICAL_TIMESTAMP.test(ts)
      ? ts
      : ts !== undefined
        ? normalizeTimestamp(ts)
        : undefined) ?? iso(receivedAtMs);
  const c = call;
  let userId = c.userId;
  if (!isNonEmpty(userId) && call.type !== 'alias') {
    if (options.anonymousCalls === 'anonymousId-as-userId' && isNonEmpty(c.anonymousId)) userId = c.anonymousId;
    else return { ok: false, reason: NO_USER_ID_REASON };
  }
  const ids: Record<string, string> = {};
  if (options.includeIds) {
    if (isNonEmpty(c.anonymousId)) ids.anonymousId = c.anonymousId;
    ids.messageId = isNonEmpty(c.messageId) ? c.messageId : `emu-${randomUUID()}`;
  }
  const context = call.context !== undefined ? { context: call.context } : {};
  let message: Record<string, unknown>;
  switch (call.type) {
    case 'page':
      message = {
        version: 1,
        type: 'page',
        userId,
        ...ids,
        timestamp,
        ...opt('properties', call.properties),
        ...context,
      };
      break;
    case 'screen':
      if (!isNonEmpty(call.name))
        return { ok: false, reason: 'no name: the Webhooks screen message needs a name; give the screen call a name' };
      message = { version: 1, type: 'screen', userId, ...ids, timestamp, name: call.name, ...context };
      break;
    case 'identify':
      message = { version: 1, type: 'identify', userId, ...ids, timestamp, ...opt('traits', call.traits), ...context };
      break;
    case 'track':
      message = {
        version: 1,
        type: 'track',
        userId,
        ...ids,
        timestamp,
        event: call.event,
        ...opt('properties', call.properties),
        ...context,
      };
      break;
    case 'group':
      message = {
        version: 1,
        type: 'group',
        userId,
        ...ids,
        timestamp,
        groupId: call.groupId,
        ...opt('traits', call.traits),
        ...context,
      };
      break;
    case 'alias':
      message = {
        version: 1,
        type: 'alias',
        'Previous ID': call.previousId,
        'User ID': call.userId,
        ...ids,
        timestamp,
        ...context,
      };
      break;
    default:
      return { ok: false, reason: `unknown call type ${JSON.stringify((call as { type?: unknown }).type)}` };
  }
  // The call's own validation already guarantees every field but the typed parts of `context`
  // (device, os, app) and page's recognized properties; only then is the whole message checked.
  const issues = needsShapeCheck(message) ? messageIssues(message, { strictTimestamps: true }) : [];
  if (issues.length > 0) {
    return {
      ok: false,
      reason: `the call cannot become a valid Webhooks ${call.type} message: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
    };
  }
  return { ok: true, message: message as WebhookMessage };
}

const TYPED_CONTEXT_KEYS = ['device', 'os', 'app'] as const;
const PAGE_PROPERTY_KEYS = ['path', 'referrer', 'title', 'url'] as const;

/** Whether a message built from a valid call holds parts whose shape the call schema does not fix. */
function needsShapeCheck(message: Record<string, unknown>): boolean {
  const context = message.context as Record<string, unknown> | undefined;
  if (context && TYPED_CONTEXT_KEYS.some((k) => context[k] !== undefined)) return true;
  const properties = message.properties as Record<string, unknown> | undefined;
  return (
    message.type === 'page' && properties !== undefined && PAGE_PROPERTY_KEYS.some((k) => properties[k] !== undefined)
  );
}

function opt(key: string, value: unknown): Record<string, unknown> {
  return value === undefined ? {} : { [key]: value };
}

/**
 * The delete notification: `type`, `userId`, `timestamp` only.
 *
 * @example
 * deleteMessage('u1', Date.now()); // { type: 'delete', userId: 'u1', timestamp: '…' }
 */
export function deleteMessage(userId: string, atMs: number): DeleteMessage {
  return { type: 'delete', userId, timestamp: iso(atMs) };
}

/**
 * The identify message an audience or computed-trait sync sends: one trait.
 *
 * @example
 * traitIdentify('u1', { high_value_users: true }, Date.now());
 */
export function traitIdentify(userId: string, traits: Record<string, unknown>, atMs: number): IdentifyMessage {
  return { version: 1, type: 'identify', userId, timestamp: iso(atMs), traits };
}
