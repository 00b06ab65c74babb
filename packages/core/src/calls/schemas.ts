import { Type, type TSchema } from '@sinclair/typebox';
import { IsoTimestampSchema } from '../messages/timestamp.js';

/**
 * The call types clients send to the service's tracking API.
 *
 * @example
 * const routes = CALL_TYPES.map((type) => `/v1/${type}`); // ['/v1/identify', '/v1/track', ...]
 */
export const CALL_TYPES = ['identify', 'track', 'page', 'screen', 'group', 'alias'] as const;

/**
 * One of the call types a client sends.
 *
 * @example
 * const type: CallType = 'track';
 * const call = parseCall({ userId: 'u1', event: 'Signed Up' }, { type });
 */
export type CallType = (typeof CALL_TYPES)[number];

const Str = Type.String();
const AnyObject = Type.Record(Type.String(), Type.Unknown());

const common = {
  userId: Type.Optional(Str),
  anonymousId: Type.Optional(Str),
  messageId: Type.Optional(Str),
  timestamp: Type.Optional(IsoTimestampSchema),
  context: Type.Optional(AnyObject),
  integrations: Type.Optional(AnyObject),
};

const obj = <P extends Record<string, TSchema>>(type: string, props: P) =>
  Type.Object(props, { $id: `https://hookgate.dev/schemas/call-${type}.json`, title: `${type} call` });

/**
 * TypeBox schemas of every call a client sends (shapes of the tracking HTTP API).
 *
 * @example
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(callSchemas.track, { userId: 'u1', event: 'Signed Up' }); // true
 */
export const callSchemas = {
  identify: obj('identify', {
    ...common,
    type: Type.Optional(Type.Literal('identify')),
    traits: Type.Optional(AnyObject),
  }),
  track: obj('track', {
    ...common,
    type: Type.Optional(Type.Literal('track')),
    event: Str,
    properties: Type.Optional(AnyObject),
  }),
  page: obj('page', {
    ...common,
    type: Type.Optional(Type.Literal('page')),
    name: Type.Optional(Str),
    category: Type.Optional(Str),
    properties: Type.Optional(AnyObject),
  }),
  screen: obj('screen', {
    ...common,
    type: Type.Optional(Type.Literal('screen')),
    name: Type.Optional(Str),
    category: Type.Optional(Str),
    properties: Type.Optional(AnyObject),
  }),
  group: obj('group', {
    ...common,
    type: Type.Optional(Type.Literal('group')),
    groupId: Str,
    traits: Type.Optional(AnyObject),
  }),
  alias: obj('alias', { ...common, type: Type.Optional(Type.Literal('alias')), previousId: Str }),
} as const;
