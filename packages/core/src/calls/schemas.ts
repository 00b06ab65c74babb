import { literal, object, openObject, string, type FieldSchema } from '../messages/schema-parts.js';
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

const Str = string();
const AnyObject = openObject();

const common = {
  userId: Str,
  anonymousId: Str,
  messageId: Str,
  timestamp: IsoTimestampSchema,
  context: AnyObject,
  integrations: AnyObject,
};

const call = <const P extends Record<string, FieldSchema>, const R extends keyof P & string = never>(
  type: string,
  properties: P,
  required: readonly R[] = [],
) => object(properties, required, { $id: `https://hookgate.dev/schemas/call-${type}.json`, title: `${type} call` });

/**
 * The JSON Schema of every call a client sends (shapes of the tracking HTTP API), as plain objects.
 *
 * @example
 * callSchemas.track.required; // ['event']
 */
export const callSchemas = {
  identify: call('identify', { ...common, type: literal('identify'), traits: AnyObject }),
  track: call('track', { ...common, type: literal('track'), event: Str, properties: AnyObject }, ['event']),
  page: call('page', {
    ...common,
    type: literal('page'),
    name: Str,
    category: Str,
    properties: AnyObject,
  }),
  screen: call('screen', {
    ...common,
    type: literal('screen'),
    name: Str,
    category: Str,
    properties: AnyObject,
  }),
  group: call('group', { ...common, type: literal('group'), groupId: Str, traits: AnyObject }, ['groupId']),
  alias: call('alias', { ...common, type: literal('alias'), previousId: Str }, ['previousId']),
} as const;
