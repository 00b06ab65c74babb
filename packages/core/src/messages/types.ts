import type { Static } from '@sinclair/typebox';
import type { ContextSchema, MessageType, messageSchemas } from './schemas.js';

/**
 * Fields the service may add beyond the seed's tables: kept, typed `unknown`.
 *
 * @example
 * const msg: TrackMessage = fixture('track');
 * const sentAt = msg['sentAt']; // unknown: a field beyond the documented ones, kept as sent
 */
export interface ExtraFields {
  [key: string]: unknown;
}

type Schemas = typeof messageSchemas;

/**
 * The context object sent with every non-delete message.
 *
 * @example
 * const deviceModel = (context: MessageContext | undefined) => context?.device?.model ?? 'unknown';
 * deviceModel(fixtures.screen.context); // 'iPhone15,2'
 */
export type MessageContext = Static<typeof ContextSchema> & ExtraFields;

/**
 * A `page` message.
 *
 * @example
 * const onPage = (msg: PageMessage) => console.log(msg.userId, 'viewed', msg.properties?.url);
 */
export type PageMessage = Static<Schemas['page']> & ExtraFields;
/**
 * A `screen` message.
 *
 * @example
 * const onScreen = (msg: ScreenMessage) => console.log(msg.name, 'on', msg.context?.os?.name);
 */
export type ScreenMessage = Static<Schemas['screen']> & ExtraFields;
/**
 * An `identify` message (also how audience and computed-trait syncs arrive).
 *
 * @example
 * const onIdentify = (msg: IdentifyMessage) => console.log(msg.userId, msg.traits?.email);
 */
export type IdentifyMessage = Static<Schemas['identify']> & ExtraFields;
/**
 * A `track` message.
 *
 * @example
 * const onTrack = (msg: TrackMessage) => console.log(msg.event, msg.properties?.revenue);
 */
export type TrackMessage = Static<Schemas['track']> & ExtraFields;
/**
 * An `alias` message: `"Previous ID"` and `"User ID"`, with the spaces, and no `userId`.
 *
 * @example
 * const onAlias = (msg: AliasMessage) => console.log(msg['Previous ID'], '→', msg['User ID']);
 */
export type AliasMessage = Static<Schemas['alias']> & ExtraFields;
/**
 * A `group` message.
 *
 * @example
 * const onGroup = (msg: GroupMessage) => console.log(msg.userId, 'joined', msg.groupId, msg.traits?.name);
 */
export type GroupMessage = Static<Schemas['group']> & ExtraFields;
/**
 * A `delete` notification: `type`, `userId`, `timestamp` only.
 *
 * @example
 * const onDelete = (msg: DeleteMessage) => console.log('erase every record of', msg.userId);
 */
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

/**
 * The message of one type, e.g. `MessageOf<'track'>` is `TrackMessage`.
 *
 * @example
 * const order: MessageOf<'track'> = fixture('track', { event: 'Order Completed' });
 */
export type MessageOf<T extends MessageType> = Extract<WebhookMessage, { type: T }>;
