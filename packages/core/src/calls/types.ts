import type { Static } from '@sinclair/typebox';
import type { ExtraFields } from '../messages/types.js';
import type { Integrations } from './integrations.js';
import type { CallType, callSchemas } from './schemas.js';

type Schemas = typeof callSchemas;
type WithType<T, K extends CallType> = Omit<T, 'type' | 'integrations'> & {
  type: K;
  integrations?: Integrations;
} & ExtraFields;

/** An identify call: who the user is, with traits. */
export type IdentifyCall = WithType<Static<Schemas['identify']>, 'identify'>;
/** A track call: an event the user did, with properties. */
export type TrackCall = WithType<Static<Schemas['track']>, 'track'>;
/** A page call: a page view, with properties (url, title, referrer, path and custom keys). */
export type PageCall = WithType<Static<Schemas['page']>, 'page'>;
/** A screen call: a mobile screen view. */
export type ScreenCall = WithType<Static<Schemas['screen']>, 'screen'>;
/** A group call: the user belongs to a group, with the group's traits. */
export type GroupCall = WithType<Static<Schemas['group']>, 'group'>;
/** An alias call: `previousId` becomes `userId`. */
export type AliasCall = WithType<Static<Schemas['alias']>, 'alias'>;

/**
 * Any call a client sends to the tracking API, discriminated on `type`.
 *
 * @example
 * const call: Call = { type: 'track', userId: 'u1', event: 'Signed Up', properties: { plan: 'pro' } };
 */
export type Call = IdentifyCall | TrackCall | PageCall | ScreenCall | GroupCall | AliasCall;

/** A call without its `type` (the type is given by the method or the URL path). */
export type CallInput<T extends CallType> = Omit<Extract<Call, { type: T }>, 'type'> & { type?: T };
