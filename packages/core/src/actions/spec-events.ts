/**
 * The Segment Spec event types, as Webhooks (Actions) sends them with its default mapping
 * (`data: {"@path": "$."}`: the whole event). Unlike a classic webhook message these carry the
 * Spec's common fields (`messageId`, `anonymousId`, `integrations`, `receivedAt`, `sentAt`, …) and
 * Segment's own names (`previousId`, not `"Previous ID"`). Types only: nothing here runs.
 */

/**
 * The six Spec event types a Webhooks (Actions) subscription can send.
 *
 * @example
 * const wanted: SpecEventType[] = ['track', 'identify'];
 */
export type SpecEventType = 'track' | 'identify' | 'page' | 'screen' | 'group' | 'alias';

/**
 * The Spec event types, in the order the docs list them.
 *
 * @example
 * SPEC_EVENT_TYPES.includes(body.type); // is it a whole Segment event's type?
 */
export const SPEC_EVENT_TYPES: readonly SpecEventType[] = ['track', 'identify', 'page', 'screen', 'group', 'alias'];

/**
 * The `context` of a Spec event: the documented fields, typed; any other key kept as `unknown`.
 *
 * @example
 * const where = (ctx: SpecContext | undefined) => `${ctx?.ip ?? '?'} ${ctx?.library?.name ?? '?'}`;
 */
export interface SpecContext {
  active?: boolean;
  app?: { name?: string; version?: string; build?: string; namespace?: string; [key: string]: unknown };
  campaign?: {
    name?: string;
    source?: string;
    medium?: string;
    term?: string;
    content?: string;
    [key: string]: unknown;
  };
  device?: {
    id?: string;
    advertisingId?: string;
    adTrackingEnabled?: boolean;
    manufacturer?: string;
    model?: string;
    name?: string;
    type?: string;
    token?: string;
    [key: string]: unknown;
  };
  ip?: string;
  library?: { name?: string; version?: string; [key: string]: unknown };
  locale?: string;
  location?: {
    city?: string;
    country?: string;
    latitude?: number;
    longitude?: number;
    region?: string;
    speed?: number;
    [key: string]: unknown;
  };
  network?: { bluetooth?: boolean; carrier?: string; cellular?: boolean; wifi?: boolean; [key: string]: unknown };
  os?: { name?: string; version?: string; [key: string]: unknown };
  page?: { path?: string; referrer?: string; search?: string; title?: string; url?: string; [key: string]: unknown };
  referrer?: { id?: string; type?: string; [key: string]: unknown };
  screen?: { width?: number; height?: number; density?: number; [key: string]: unknown };
  groupId?: string;
  timezone?: string;
  userAgent?: string;
  traits?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * Which destinations an event was sent to (`All`, then names; values `true`, `false` or settings).
 *
 * @example
 * const integrations: SpecIntegrations = { All: false, 'Webhooks (Actions)': true };
 */
export type SpecIntegrations = Record<string, unknown>;

/**
 * The Spec's common fields, on every event type.
 *
 * @example
 * const idOf = (e: SpecCommonFields) => e.userId ?? e.anonymousId;
 */
export interface SpecCommonFields {
  /** Unique per message; Segment and hookgate dedupe by it. */
  messageId: string;
  /** The user before they are known; every event has `userId`, `anonymousId` or both. */
  anonymousId?: string | null;
  /** The known user's id. */
  userId?: string | null;
  /** Device, library, page, campaign and similar information. */
  context?: SpecContext | null;
  /** Which destinations this event was sent to. */
  integrations?: SpecIntegrations | null;
  /** When the event happened (ISO 8601); corrected for the client's clock. */
  timestamp: string;
  /** When the client sent it (ISO 8601). */
  sentAt?: string | null;
  /** When Segment's servers received it (ISO 8601). */
  receivedAt: string;
  /** The client's own timestamp before clock correction (ISO 8601), when Segment added one. */
  originalTimestamp?: string | null;
  /** Where the event came from: `server`, `browser` or `mobile`. */
  channel?: string | null;
  /** The Spec version Segment stamped (`1.1` or `2`). */
  version?: number | string;
}

/**
 * A whole `track` event.
 *
 * @example
 * const onTrack = (e: SpecTrackEvent) => console.log(e.event, e.properties?.revenue, e.messageId);
 */
export interface SpecTrackEvent extends SpecCommonFields {
  type: 'track';
  event: string;
  properties?: Record<string, unknown> | null;
}
/**
 * A whole `identify` event.
 *
 * @example
 * const onIdentify = (e: SpecIdentifyEvent) => console.log(e.userId, e.traits?.email);
 */
export interface SpecIdentifyEvent extends SpecCommonFields {
  type: 'identify';
  traits?: Record<string, unknown> | null;
}
/**
 * A whole `page` event.
 *
 * @example
 * const onPage = (e: SpecPageEvent) => console.log(e.name, e.properties?.url);
 */
export interface SpecPageEvent extends SpecCommonFields {
  type: 'page';
  name?: string | null;
  category?: string | null;
  properties?: Record<string, unknown> | null;
}
/**
 * A whole `screen` event.
 *
 * @example
 * const onScreen = (e: SpecScreenEvent) => console.log(e.name, e.context?.os?.name);
 */
export interface SpecScreenEvent extends SpecCommonFields {
  type: 'screen';
  name?: string | null;
  category?: string | null;
  properties?: Record<string, unknown> | null;
}
/**
 * A whole `group` event.
 *
 * @example
 * const onGroup = (e: SpecGroupEvent) => console.log(e.userId, 'joined', e.groupId, e.traits?.name);
 */
export interface SpecGroupEvent extends SpecCommonFields {
  type: 'group';
  groupId: string;
  traits?: Record<string, unknown> | null;
}
/**
 * A whole `alias` event: `previousId` becomes `userId` (classic spells them `"Previous ID"` / `"User ID"`).
 *
 * @example
 * const onAlias = (e: SpecAliasEvent) => console.log(e.previousId, '→', e.userId);
 */
export interface SpecAliasEvent extends SpecCommonFields {
  type: 'alias';
  previousId: string;
  userId: string;
}

/**
 * Any whole Segment event, discriminated on `type`. Exact: `e.evnt` is a compile error; reach a
 * field beyond the Spec with `SpecExtras` (`(e as SpecExtras<typeof e>).custom`).
 *
 * @example
 * function label(e: SpecEvent) {
 *   return e.type === 'track' ? e.event : e.type === 'group' ? e.groupId : e.type;
 * }
 */
export type SpecEvent =
  SpecTrackEvent | SpecIdentifyEvent | SpecPageEvent | SpecScreenEvent | SpecGroupEvent | SpecAliasEvent;

/**
 * The Spec event of one type.
 *
 * @example
 * const e: SpecEventOf<'track'> = { type: 'track', event: 'Signed Up', messageId: 'm1', userId: 'u1', timestamp: '2026-11-25T10:00:00.000Z', receivedAt: '2026-11-25T10:00:00.120Z' };
 */
export type SpecEventOf<T extends SpecEventType> = Extract<SpecEvent, { type: T }>;

/**
 * The escape hatch to fields beyond the Spec (kept at run time, typed `unknown`).
 *
 * @example
 * const onTrack = (e: SpecTrackEvent) => (e as SpecExtras<SpecTrackEvent>).writeKey; // unknown
 */
export type SpecExtras<T> = T & { readonly [key: string]: unknown };
