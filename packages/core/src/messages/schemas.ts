import { absent, literal, object, openObject, string, type StringSchema } from './schema-parts.js';
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

const Str = string();
const AnyObject = openObject();

/**
 * The context object's JSON Schema: arbitrary keys; the screen shape (device, os, app) is typed where given.
 *
 * @example
 * ContextSchema.properties.os.properties.name; // { type: 'string' }
 */
export const ContextSchema = object(
  {
    device: object({ model: Str, type: Str }),
    os: object({ name: Str, version: Str }),
    app: object({ build: Str, name: Str, version: Str }),
  },
  [],
  { description: 'Device, IP and similar information. Only the screen shape is given by the service.' },
);

/**
 * Page properties' JSON Schema: the recognized keys are strings; custom keys are allowed.
 *
 * @example
 * Object.keys(PagePropertiesSchema.properties); // ['path', 'referrer', 'title', 'url']
 */
export const PagePropertiesSchema = object({ path: Str, referrer: Str, title: Str, url: Str });

/**
 * Builds every message schema around one timestamp schema, so the wide (default) and the strict
 * validators come from the same definitions.
 */
function buildMessageSchemas<T extends StringSchema>(timestamp: T) {
  const common = { version: literal(1), userId: Str, timestamp, context: ContextSchema };
  const commonRequired = ['version', 'userId', 'timestamp', 'type'] as const;
  const meta = (id: string) => ({ $id: `https://hookgate.dev/schemas/${id}.json`, title: id });
  return {
    page: object({ ...common, type: literal('page'), properties: PagePropertiesSchema }, commonRequired, meta('page')),
    screen: object({ ...common, type: literal('screen'), name: Str }, [...commonRequired, 'name'], meta('screen')),
    identify: object({ ...common, type: literal('identify'), traits: AnyObject }, commonRequired, meta('identify')),
    track: object(
      { ...common, type: literal('track'), event: Str, properties: AnyObject },
      [...commonRequired, 'event'],
      meta('track'),
    ),
    alias: object(
      {
        version: literal(1),
        type: literal('alias'),
        timestamp,
        context: ContextSchema,
        'Previous ID': Str,
        'User ID': Str,
        // No userId on alias: in the schema itself, so the types, the validator and the
        // exported JSON Schema (`"not": {}`) all say so.
        userId: absent('absent on alias: the new id is in "User ID"'),
      },
      ['version', 'type', 'timestamp', 'Previous ID', 'User ID'],
      meta('alias'),
    ),
    group: object(
      { ...common, type: literal('group'), groupId: Str, traits: AnyObject },
      [...commonRequired, 'groupId'],
      meta('group'),
    ),
    delete: object(
      { type: literal('delete'), userId: Str, timestamp },
      ['type', 'userId', 'timestamp'],
      meta('delete'),
    ),
  } as const;
}

/**
 * The JSON Schema of every message type, accepting any ISO 8601 timestamp (plain objects: check a
 * value with `parseMessage`, or hand them to any JSON Schema validator).
 *
 * @example
 * messageSchemas.track.required; // ['version', 'userId', 'timestamp', 'type', 'event']
 */
export const messageSchemas = buildMessageSchemas(IsoTimestampSchema);

/**
 * The JSON Schema of every message type, requiring the sender's exact UTC-with-milliseconds timestamps.
 *
 * @example
 * strictMessageSchemas.track.properties.timestamp.pattern; // the UTC-with-milliseconds form
 */
export const strictMessageSchemas = buildMessageSchemas(StrictTimestampSchema);
