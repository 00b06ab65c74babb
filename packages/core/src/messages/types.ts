import type { SchemaType } from './schema-parts.js';
import type { ContextSchema, MessageType, PagePropertiesSchema, messageSchemas } from './schemas.js';

/**
 * Open keys typed `unknown`: the shape of objects whose keys are not fixed (`properties`, `traits`,
 * `context`) and of a call's extra fields.
 *
 * @example
 * const extras: ExtraFields = { messageId: 'm1', anonymousId: 'anon_5e1f' };
 * const id = extras['messageId']; // unknown: narrow it before use
 */
export interface ExtraFields {
  [key: string]: unknown;
}

/**
 * The context object sent with every non-delete message: the screen shape (device, os, app) typed,
 * any other key (ip, locale, library…) kept and typed `unknown`.
 *
 * @example
 * const deviceModel = (context: MessageContext | undefined) => context?.device?.model ?? 'unknown';
 * deviceModel(fixtures.screen.context); // 'iPhone15,2'
 */
export type MessageContext = SchemaType<typeof ContextSchema> & ExtraFields;

/**
 * A page message's properties: `path`, `referrer`, `title` and `url` typed as strings, custom keys open.
 *
 * @example
 * const where = (p: PageProperties | undefined) => p?.url ?? p?.['screenWidth'];
 */
export type PageProperties = SchemaType<typeof PagePropertiesSchema> & ExtraFields;

/**
 * The message of one of `messageSchemas`: exactly its documented top-level fields (an unknown
 * top-level field does not compile; reach extras with `extraFields(msg)`), with `context` open,
 * without the fields named in `Drop` and with those of `Over` in their place. Spelled out as one
 * object type, so editor hovers show plain fields. The message types (`TrackMessage`, …) are made with it.
 *
 * @example
 * type Track = MessageShape<'track'>; // the same fields as TrackMessage
 * const event = (msg: Track) => msg.event;
 */
export type MessageShape<S extends keyof typeof messageSchemas, Drop extends string = never, Over = unknown> = Omit<
  SchemaType<(typeof messageSchemas)[S]>,
  'context' | Drop | keyof Over
> &
  ('context' extends keyof SchemaType<(typeof messageSchemas)[S]> ? { context?: MessageContext } : unknown) &
  Over extends infer T
  ? { [K in keyof T]: T[K] } & {}
  : never;

/**
 * A `page` message: `userId`, `timestamp`, `properties` (url, title, path, referrer, custom keys) and
 * `context`. No `name` and no `category`: the Webhooks destination's documented page message carries
 * properties only, so a page call's `name` and `category` (which Segment's other destinations show)
 * are not delivered. Send them inside `properties` if your receiver needs them.
 *
 * @example
 * const onPage = (msg: PageMessage) => console.log(msg.userId, 'viewed', msg.properties?.url);
 */
export type PageMessage = MessageShape<'page', never, { properties?: PageProperties }>;
/**
 * A `screen` message.
 *
 * @example
 * const onScreen = (msg: ScreenMessage) => console.log(msg.name, 'on', msg.context?.os?.name);
 */
export type ScreenMessage = MessageShape<'screen'>;
/**
 * An `identify` message (also how audience and computed-trait syncs arrive). `traits` is open.
 *
 * @example
 * const onIdentify = (msg: IdentifyMessage) => console.log(msg.userId, msg.traits?.email);
 */
export type IdentifyMessage = MessageShape<'identify'>;
/**
 * A `track` message. `properties` is open.
 *
 * @example
 * const onTrack = (msg: TrackMessage) => console.log(msg.event, msg.properties?.revenue);
 */
export type TrackMessage = MessageShape<'track'>;
/**
 * An `alias` message: `"Previous ID"` and `"User ID"`, with the spaces, and no `userId`
 * (`msg.userId` does not compile on an alias).
 *
 * @example
 * const onAlias = (msg: AliasMessage) => console.log(msg['Previous ID'], '→', msg['User ID']);
 */
export type AliasMessage = MessageShape<'alias', 'userId'>;
/**
 * A `group` message. `traits` is open.
 *
 * @example
 * const onGroup = (msg: GroupMessage) => console.log(msg.userId, 'joined', msg.groupId, msg.traits?.name);
 */
export type GroupMessage = MessageShape<'group'>;
/**
 * A `delete` notification: `type`, `userId`, `timestamp` only.
 *
 * @example
 * const onDelete = (msg: DeleteMessage) => console.log('erase every record of', msg.userId);
 */
export type DeleteMessage = MessageShape<'delete'>;

/**
 * Any message the Webhooks destination delivers, discriminated on `type`. Only documented fields
 * are readable; fields beyond them are kept at run time and read with `extraFields(msg)`.
 *
 * @example
 * function describe(msg: WebhookMessage) {
 *   if (msg.type === 'track') return msg.event; // narrowed to TrackMessage
 *   if (msg.type === 'alias') return msg['Previous ID'];
 *   return msg.type;
 * }
 */
export type WebhookMessage =
  PageMessage | ScreenMessage | IdentifyMessage | TrackMessage | AliasMessage | GroupMessage | DeleteMessage;

/**
 * The message of one type, e.g. `MessageOf<'track'>` is `TrackMessage`.
 *
 * @example
 * const order: MessageOf<'track'> = fixture('track', { event: 'Order Completed' });
 */
export type MessageOf<T extends MessageType> = Extract<WebhookMessage, { type: T }>;
