import { messageSchemas } from './schemas.js';
import type { ExtraFields, WebhookMessage } from './types.js';

/**
 * The typed escape hatch for fields a message carries beyond its documented ones (a `messageId`,
 * an `anonymousId`…): message types are exact, so `msg.messageId` does not compile; this returns
 * every top-level field that is not part of the message's type, typed `unknown`, in a new object.
 *
 * @example
 * const msg = parseMessage(body);
 * const { messageId } = extraFields(msg); // unknown
 * if (typeof messageId === 'string') console.log('sender id', messageId);
 */
export function extraFields(msg: WebhookMessage): Readonly<ExtraFields> {
  const known = messageSchemas[msg.type].properties as Record<string, unknown>;
  const extras: ExtraFields = {};
  for (const [key, value] of Object.entries(msg)) {
    if (!Object.hasOwn(known, key)) extras[key] = value;
  }
  return extras;
}
