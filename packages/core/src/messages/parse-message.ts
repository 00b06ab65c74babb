import { collectIssues, describe } from './collect-issues.js';
import { MESSAGE_TYPES, messageSchemas, strictMessageSchemas, type MessageType } from './schemas.js';
import type { MessageOf, WebhookMessage } from './types.js';
import { ValidationError, type ValidationIssue } from './validation-error.js';

/**
 * Options of `parseMessage` and `safeParseMessage`.
 *
 * @example
 * const options: ParseMessageOptions = { strictTimestamps: true };
 * const msg = parseMessage(body, options);
 */
export interface ParseMessageOptions {
  /**
   * Require the sender's exact timestamp form (UTC with milliseconds). Default `false`: any ISO 8601
   * date-time with a zone is accepted, because refusing a message answers 4xx and the sender then
   * drops it for good.
   */
  strictTimestamps?: boolean;
}

/**
 * The result of `safeParseMessage`: the typed message, or every problem found.
 *
 * @example
 * const result: SafeParseResult<WebhookMessage> = safeParseMessage(body);
 * if (result.success) console.log(result.data.type);
 * else console.error(result.error.issues);
 */
export type SafeParseResult<T> = { success: true; data: T } | { success: false; error: ValidationError };

const TYPE_SET: ReadonlySet<string> = new Set(MESSAGE_TYPES);

/**
 * Lists every problem of a value as a webhook message, or returns an empty list when it is valid.
 *
 * @example
 * messageIssues({ version: 1, type: 'track', userId: 'u1', timestamp: '2026-01-01T00:00:00.000Z' });
 * // [{ path: '$.event', message: 'is required' }]
 */
export function messageIssues(value: unknown, options: ParseMessageOptions = {}): ValidationIssue[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [{ path: '$', message: `must be a JSON object (got ${describe(value)})` }];
  }
  const type = (value as { type?: unknown }).type;
  if (typeof type !== 'string' || !TYPE_SET.has(type)) {
    return [
      {
        path: '$.type',
        message:
          type === undefined
            ? `is required: one of ${MESSAGE_TYPES.join(', ')}`
            : `must be one of ${MESSAGE_TYPES.join(', ')} (got ${describe(type)})`,
      },
    ];
  }
  const schemas = options.strictTimestamps ? strictMessageSchemas : messageSchemas;
  return collectIssues(schemas[type as MessageType], value);
}

function toValue(input: unknown): unknown {
  if (typeof input === 'string') return JSON.parse(input);
  if (input instanceof Uint8Array) return JSON.parse(new TextDecoder().decode(input));
  return input;
}

/**
 * Parses JSON text, bytes or an already parsed value into a typed `WebhookMessage`; throws a
 * `ValidationError` listing every problem with its JSON path, or a `SyntaxError` for bad JSON.
 * Unknown extra fields are kept.
 *
 * @example
 * const msg = parseMessage('{"version":1,"type":"track","userId":"u1","event":"Signed Up","timestamp":"2026-01-01T00:00:00.000Z"}');
 * if (msg.type === 'track') console.log(msg.event);
 */
export function parseMessage(input: unknown, options: ParseMessageOptions = {}): WebhookMessage {
  const value = toValue(input);
  const issues = messageIssues(value, options);
  if (issues.length > 0) throw new ValidationError(issues);
  return value as WebhookMessage;
}

/**
 * Like `parseMessage` but never throws: bad JSON and invalid messages come back as `success: false`.
 *
 * @example
 * const r = safeParseMessage(body);
 * if (!r.success) console.error(r.error.issues);
 */
export function safeParseMessage(input: unknown, options: ParseMessageOptions = {}): SafeParseResult<WebhookMessage> {
  let value: unknown;
  try {
    value = toValue(input);
  } catch (e) {
    return {
      success: false,
      error: new ValidationError([{ path: '$', message: `is not valid JSON: ${(e as Error).message}` }]),
    };
  }
  const issues = messageIssues(value, options);
  if (issues.length > 0) return { success: false, error: new ValidationError(issues) };
  return { success: true, data: value as WebhookMessage };
}

/**
 * Type guard for one message type, validating the whole shape (not only `type`).
 *
 * @example
 * if (isMessageOfType(value, 'alias')) console.log(value['User ID']);
 */
export function isMessageOfType<T extends MessageType>(value: unknown, type: T): value is MessageOf<T> {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === type &&
    messageIssues(value).length === 0
  );
}

/**
 * Type guard: is this value a valid webhook message of any type?
 *
 * @example
 * if (isWebhookMessage(json)) handle(json);
 */
export function isWebhookMessage(value: unknown): value is WebhookMessage {
  return messageIssues(value).length === 0;
}

/** Guard for a `page` message. @example if (isPage(v)) v.properties?.url; */
export const isPage = (v: unknown): v is MessageOf<'page'> => isMessageOfType(v, 'page');
/** Guard for a `screen` message. @example if (isScreen(v)) v.name; */
export const isScreen = (v: unknown): v is MessageOf<'screen'> => isMessageOfType(v, 'screen');
/** Guard for an `identify` message. @example if (isIdentify(v)) v.traits; */
export const isIdentify = (v: unknown): v is MessageOf<'identify'> => isMessageOfType(v, 'identify');
/** Guard for a `track` message. @example if (isTrack(v)) v.event; */
export const isTrack = (v: unknown): v is MessageOf<'track'> => isMessageOfType(v, 'track');
/** Guard for an `alias` message. @example if (isAlias(v)) v['Previous ID']; */
export const isAlias = (v: unknown): v is MessageOf<'alias'> => isMessageOfType(v, 'alias');
/** Guard for a `group` message. @example if (isGroup(v)) v.groupId; */
export const isGroup = (v: unknown): v is MessageOf<'group'> => isMessageOfType(v, 'group');
/** Guard for a `delete` notification. @example if (isDelete(v)) v.userId; */
export const isDelete = (v: unknown): v is MessageOf<'delete'> => isMessageOfType(v, 'delete');
