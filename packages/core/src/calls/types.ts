import type { SchemaType } from '../messages/schema-parts.js';
import type { ExtraFields } from '../messages/types.js';
import type { Integrations } from './integrations.js';
import type { CallType, callSchemas } from './schemas.js';

/**
 * The call of one type, from its schema in `callSchemas`: its documented fields, `type`, the
 * `integrations` object, and any other field (typed `unknown`). The call types (`TrackCall`, …) are made with it.
 *
 * @example
 * const call: CallShape<'track'> = { type: 'track', userId: 'u1', event: 'Signed Up' }; // a TrackCall
 */
export type CallShape<K extends CallType> = Omit<SchemaType<(typeof callSchemas)[K]>, 'type' | 'integrations'> & {
  type: K;
  integrations?: Integrations;
} & ExtraFields;

/**
 * An identify call: who the user is, with traits.
 *
 * @example
 * const call: IdentifyCall = { type: 'identify', userId: 'u1', traits: { email: 'ada@example.com', plan: 'premium' } };
 */
export type IdentifyCall = CallShape<'identify'>;
/**
 * A track call: an event the user did, with properties.
 *
 * @example
 * const call: TrackCall = { type: 'track', userId: 'u1', event: 'Order Completed', properties: { revenue: 42.5 } };
 */
export type TrackCall = CallShape<'track'>;
/**
 * A page call: a page view, with properties (url, title, referrer, path and custom keys).
 *
 * @example
 * const call: PageCall = { type: 'page', anonymousId: 'anon_5e1f', name: 'Pricing', properties: { url: 'https://app.example.com/pricing' } };
 */
export type PageCall = CallShape<'page'>;
/**
 * A screen call: a mobile screen view.
 *
 * @example
 * const call: ScreenCall = { type: 'screen', userId: 'u1', name: 'Home' };
 */
export type ScreenCall = CallShape<'screen'>;
/**
 * A group call: the user belongs to a group, with the group's traits.
 *
 * @example
 * const call: GroupCall = { type: 'group', userId: 'u1', groupId: 'acme_inc', traits: { name: 'Acme Inc' } };
 */
export type GroupCall = CallShape<'group'>;
/**
 * An alias call: `previousId` becomes `userId`.
 *
 * @example
 * const call: AliasCall = { type: 'alias', previousId: 'anon_5e1f', userId: 'user_1001' };
 */
export type AliasCall = CallShape<'alias'>;

/**
 * Any call a client sends to the tracking API, discriminated on `type`.
 *
 * @example
 * const call: Call = { type: 'track', userId: 'u1', event: 'Signed Up', properties: { plan: 'pro' } };
 */
export type Call = IdentifyCall | TrackCall | PageCall | ScreenCall | GroupCall | AliasCall;

/**
 * A call without its `type` (the type is given by the method or the URL path).
 *
 * @example
 * const input: CallInput<'track'> = { userId: 'u1', event: 'Signed Up' };
 * const call = parseCall(input, { type: 'track' });
 */
export type CallInput<T extends CallType> = Omit<Extract<Call, { type: T }>, 'type'> & { type?: T };
