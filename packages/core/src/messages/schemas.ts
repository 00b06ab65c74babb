import { Type, type TSchema, type TString } from '@sinclair/typebox';
import { IsoTimestampSchema, StrictTimestampSchema } from './timestamp.js';

/**
 * The seven message types the Webhooks destination delivers.
 *
 * @example
 * const handled = Object.fromEntries(MESSAGE_TYPES.map((type) => [type, 0]));
 * // { page: 0, screen: 0, identify: 0, track: 0, alias: 0, group: 0, delete: 0 }
 */
export const MESSAGE_TYPES = ['page', 'screen', 'identify', 'track', 'alias', 'group', 'delete'] as const;

/**
 * One of the seven delivered message types.
 *
 * @example
 * const ignored: MessageType[] = ['page', 'screen'];
 * const wanted = (type: MessageType) => !ignored.includes(type);
 */
export type MessageType = (typeof MESSAGE_TYPES)[number];

const Str = Type.String();
const AnyObject = Type.Record(Type.String(), Type.Unknown());

/**
 * The context object: arbitrary keys; the screen shape (device, os, app) is typed where given.
 *
 * @example
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(ContextSchema, { os: { name: 'iOS', version: '17.1' }, ip: '203.0.113.7' }); // true
 */
export const ContextSchema = Type.Object(
  {
    device: Type.Optional(Type.Object({ model: Type.Optional(Str), type: Type.Optional(Str) })),
    os: Type.Optional(Type.Object({ name: Type.Optional(Str), version: Type.Optional(Str) })),
    app: Type.Optional(
      Type.Object({ build: Type.Optional(Str), name: Type.Optional(Str), version: Type.Optional(Str) }),
    ),
  },
  { description: 'Device, IP and similar information. Only the screen shape is given by the service.' },
);

/**
 * Page properties: the recognized keys are strings; custom keys are allowed.
 *
 * @example
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(PagePropertiesSchema, { url: 'https://app.example.com/pricing', title: 'Pricing' }); // true
 */
export const PagePropertiesSchema = Type.Object({
  path: Type.Optional(Str),
  referrer: Type.Optional(Str),
  title: Type.Optional(Str),
  url: Type.Optional(Str),
});

/**
 * Builds every message schema around one timestamp schema, so the wide (default) and the strict
 * validators come from the same definitions.
 */
function buildMessageSchemas<T extends TString>(timestamp: T) {
  const common = {
    version: Type.Literal(1),
    userId: Str,
    timestamp,
    context: Type.Optional(ContextSchema),
  };
  const obj = <P extends Record<string, TSchema>>(id: string, props: P) =>
    Type.Object(props, { $id: `https://hookgate.dev/schemas/${id}.json`, title: id });
  return {
    page: obj('page', { ...common, type: Type.Literal('page'), properties: Type.Optional(PagePropertiesSchema) }),
    screen: obj('screen', { ...common, type: Type.Literal('screen'), name: Str }),
    identify: obj('identify', { ...common, type: Type.Literal('identify'), traits: Type.Optional(AnyObject) }),
    track: obj('track', { ...common, type: Type.Literal('track'), event: Str, properties: Type.Optional(AnyObject) }),
    alias: obj('alias', {
      version: Type.Literal(1),
      type: Type.Literal('alias'),
      timestamp,
      context: Type.Optional(ContextSchema),
      'Previous ID': Str,
      'User ID': Str,
      // No userId on alias: in the schema itself, so the types, the validator and the
      // exported JSON Schema (`"not": {}`) all say so.
      userId: Type.Optional(Type.Never({ description: 'absent on alias: the new id is in "User ID"' })),
    }),
    group: obj('group', {
      ...common,
      type: Type.Literal('group'),
      groupId: Str,
      traits: Type.Optional(AnyObject),
    }),
    delete: obj('delete', { type: Type.Literal('delete'), userId: Str, timestamp }),
  } as const;
}

/**
 * TypeBox schemas of every message type, accepting any ISO 8601 timestamp.
 *
 * @example
 * import { Value } from '@sinclair/typebox/value';
 * const value: unknown = JSON.parse(body);
 * if (Value.Check(messageSchemas.track, value)) console.log(value.event);
 */
export const messageSchemas = buildMessageSchemas(IsoTimestampSchema);

/**
 * TypeBox schemas of every message type, requiring the sender's exact UTC-with-milliseconds timestamps.
 *
 * @example
 * import { Value } from '@sinclair/typebox/value';
 * Value.Check(strictMessageSchemas.track, { ...fixtures.track, timestamp: '2026-01-01T00:00:00Z' }); // false: no milliseconds
 */
export const strictMessageSchemas = buildMessageSchemas(StrictTimestampSchema);
