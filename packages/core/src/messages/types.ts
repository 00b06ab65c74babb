import type { Static } from '@sinclair/typebox';
import type { ContextSchema, MessageType, messageSchemas } from './schemas.js';

/** Fields the service may add beyond the seed's tables: kept, typed `unknown`. */
export interface ExtraFields {
  [key: string]: unknown;
}

type Schemas = typeof messageSchemas;

/** The context object sent with every non-delete message. */
export type MessageContext = Static<typeof ContextSchema> & ExtraFields;

/** A `page` message. */
export type PageMessage = Static<Schemas['page']> & ExtraFields;
/** A `screen` message. */
export type ScreenMessage = Static<Schemas['screen']> & ExtraFields;
/** An `identify` message (also how audience and computed-trait syncs arrive). */
export type IdentifyMessage = Static<Schemas['identify']> & ExtraFields;
/** A `track` message. */
export type TrackMessage = Static<Schemas['track']> & ExtraFields;
/** An `alias` message: `"Previous ID"` and `"User ID"`, with the spaces, and no `userId`. */
export type AliasMessage = Static<Schemas['alias']> & ExtraFields;
/** A `group` message. */
export type GroupMessage = Static<Schemas['group']> & ExtraFields;
/** A `delete` notification: `type`, `userId`, `timestamp` only. */
export type DeleteMessage = Static<Schemas['delete']> & ExtraFields;

/**
 * Any message the Webhooks destination delivers, discriminated on `type`.
 *
 * @example
 * function describe(msg: WebhookMessage) {
 *   if (msg.type === 'track') return msg.event; // narrowed to TrackMessage
 *   if (msg.type === 'alias') return msg['Previous ID'];
 *   return msg.type;
 * }
 */
export type WebhookMessage =
  | PageMessage
  | ScreenMessage
  | IdentifyMessage
  | TrackMessage
  | AliasMessage
  | GroupMessage
  | DeleteMessage;

/** The message of one type, e.g. `MessageOf<'track'>` is `TrackMessage`. */
export type MessageOf<T extends MessageType> = Extract<WebhookMessage, { type: T }>;
