import type { Static } from '@sinclair/typebox';
import type { ExtraFields } from '../messages/types.js';
import type { Integrations } from './integrations.js';
import type { CallType, callSchemas } from './schemas.js';

type Schemas = typeof callSchemas;
type WithType<T, K extends CallType> = Omit<T, 'type' | 'integrations'> & {
  type: K;
  integrations?: Integrations;
} & ExtraFields;

/**
 * An identify call: who the user is, with traits.
 *
 * @example
 * const call: IdentifyCall = { type: 'identify', userId: 'u1', traits: { email: 'ada@example.com', plan: 'premium' } };
 */
export type IdentifyCall = WithType<Static<Schemas['identify']>, 'identify'>;
/**
 * A track call: an event the user did, with properties.
 *
 * @example
 * const call: TrackCall = { type: 'track', userId: 'u1', event: 'Order Completed', properties: { revenue: 42.5 } };
 */
export type TrackCall = WithType<Static<Schemas['track']>, 'track'>;
/**
 * A page call: a page view, with properties (url, title, referrer, path and custom keys).
 *
 * @example
 * const call: PageCall = { type: 'page', anonymousId: 'anon_5e1f', name: 'Pricing', properties: { url: 'https://app.example.com/pricing' } };
 */
export type PageCall = WithType<Static<Schemas['page']>, 'page'>;
/**
 * A screen call: a mobile screen view.
 *
 * @example
 * const call: ScreenCall = { type: 'screen', userId: 'u1', name: 'Home' };
 */
export type ScreenCall = WithType<Static<Schemas['screen']>, 'screen'>;
/**
 * A group call: the user belongs to a group, with the group's traits.
 *
 * @example
 * const call: GroupCall = { type: 'group', userId: 'u1', groupId: 'acme_inc', traits: { name: 'Acme Inc' } };
 */
export type GroupCall = WithType<Static<Schemas['group']>, 'group'>;
/**
 * An alias call: `previousId` becomes `userId`.
 *
 * @example
 * const call: AliasCall = { type: 'alias', previousId: 'anon_5e1f', userId: 'user_1001' };
 */
export type AliasCall = WithType<Static<Schemas['alias']>, 'alias'>;

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
