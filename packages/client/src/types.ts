import type { Call, CallType, Integrations } from '@hookgate/core/calls';

/**
 * Who did it: a `userId`, an `anonymousId`, or both (the tracking API requires one of them).
 *
 * @example
 * const who: Identity = { anonymousId: '5e2f…' };
 */
export type Identity = { userId: string; anonymousId?: string } | { userId?: string; anonymousId: string };

/**
 * Fields every call may carry besides its own.
 *
 * @example
 * const common: CommonFields = { timestamp: new Date('2024-01-01'), integrations: { All: false, Webhooks: true } };
 */
export interface CommonFields {
  /** Your own id for the message (deduplication key downstream). Default: a random UUID. */
  messageId?: string;
  /**
   * When it happened: an ISO 8601 string with a zone (Go's `+0000` form included), a `Date`, or
   * epoch milliseconds. Sent as ISO 8601 UTC with milliseconds. Default: the time of the call.
   */
  timestamp?: string | Date | number;
  /** Extra context (device, ip, locale…), merged over the client's `context` option. */
  context?: Record<string, unknown>;
  /** Per-destination on/off switches; the key of the Webhooks destination is `Webhooks`. */
  integrations?: Integrations;
}

/**
 * The fields of an `identify` call: who the user is and their traits.
 *
 * @example
 * analytics.identify({ userId: 'u1', traits: { email: 'ada@example.com', plan: 'pro' } });
 */
export type IdentifyParams = Identity & CommonFields & { traits?: Record<string, unknown> };

/**
 * The fields of a `track` call: an event the user did, with its properties.
 *
 * @example
 * analytics.track({ userId: 'u1', event: 'Order Completed', properties: { revenue: 42 } });
 */
export type TrackParams = Identity & CommonFields & { event: string; properties?: Record<string, unknown> };

/**
 * The fields of a `page` call. The destination's page "Traits" (url, title, referrer, path and custom keys)
 * are the tracking API's `properties`. An `anonymousId` alone is accepted, as the tracking API does.
 *
 * @example
 * analytics.page({ anonymousId: 'a1', name: 'Pricing', properties: { url: 'https://example.com/pricing' } });
 */
export type PageParams = Identity &
  CommonFields & { name?: string; category?: string; properties?: Record<string, unknown> };

/**
 * The fields of a `screen` call (a mobile screen view).
 *
 * @example
 * analytics.screen({ userId: 'u1', name: 'Settings' });
 */
export type ScreenParams = PageParams;

/**
 * The fields of a `group` call: the user belongs to a group, with the group's traits.
 *
 * @example
 * analytics.group({ userId: 'u1', groupId: 'acme', traits: { employees: 42 } });
 */
export type GroupParams = Identity & CommonFields & { groupId: string; traits?: Record<string, unknown> };

/**
 * The fields of an `alias` call: `previousId` becomes `userId`.
 *
 * @example
 * analytics.alias({ previousId: 'anon-5e2f', userId: 'u1' });
 */
export type AliasParams = CommonFields & { userId: string; previousId: string };

/**
 * The fields a call of type `T` takes, e.g. `ParamsOf<'track'>` is `TrackParams`.
 *
 * @example
 * function send<T extends CallType>(type: T, params: ParamsOf<T>) {}
 */
export type ParamsOf<T extends CallType> = {
  identify: IdentifyParams;
  track: TrackParams;
  page: PageParams;
  screen: ScreenParams;
  group: GroupParams;
  alias: AliasParams;
}[T];

/**
 * A message as the client sent it: the call with its `type`, `messageId` and `timestamp` filled in
 * (ISO 8601 UTC with milliseconds). Narrow it on `type`.
 *
 * @example
 * function label(m: Message) { return m.type === 'track' ? m.event : m.type; }
 */
export type Message = Call & { messageId: string; timestamp: string };

/**
 * What `onFlush` receives for each batch the server accepted.
 *
 * @example
 * new Analytics(key, { onFlush: (r) => console.log(`${r.count} messages, HTTP ${r.status}, ${r.attempts} attempt(s)`) });
 */
export interface FlushReport {
  /** Number of messages in the batch. */
  count: number;
  /** The batch's `messageId`s, in the order sent. */
  messageIds: string[];
  /** Size of the request body in bytes. */
  bytes: number;
  /** The 2xx status the server answered. */
  status: number;
  /** Attempts it took (1 when no retry was needed). */
  attempts: number;
  /** Milliseconds from the first attempt to the answer, retries included. */
  durationMs: number;
}
