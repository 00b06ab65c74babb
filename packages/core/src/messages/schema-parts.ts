// The few JSON Schema shapes the messages and calls are made of, as plain objects, and the TypeScript
// type each one describes. The schemas are the one source of the types (`SchemaType`), of the checks
// (check-schema.ts) and of the exported JSON Schemas, without a schema library at run time.

/**
 * JSON Schema of a string: `{ type: 'string' }`, with a `pattern` and its `description` when given.
 *
 * @example
 * const timestamp: StringSchema = messageSchemas.track.properties.timestamp;
 */
export interface StringSchema {
  readonly pattern?: string;
  readonly description?: string;
  readonly type: 'string';
}

/**
 * JSON Schema of one constant value: `{ const: 1, type: 'number' }`.
 *
 * @example
 * messageSchemas.track.properties.type.const; // 'track'
 */
export interface LiteralSchema<C extends string | number = string | number> {
  readonly const: C;
  readonly type: C extends string ? 'string' : 'number';
}

/**
 * JSON Schema of a field that must be absent: `{ not: {} }` (nothing matches it).
 *
 * @example
 * messageSchemas.alias.properties.userId.description; // 'absent on alias: the new id is in "User ID"'
 */
export interface AbsentSchema {
  readonly description: string;
  readonly not: Record<string, never>;
}

/**
 * JSON Schema of an object with open keys, any values: `{ type: 'object', patternProperties: { '^(.*)$': {} } }`.
 *
 * @example
 * const traits: OpenObjectSchema = messageSchemas.identify.properties.traits;
 */
export interface OpenObjectSchema {
  readonly type: 'object';
  readonly patternProperties: { readonly '^(.*)$': Record<string, never> };
}

/**
 * JSON Schema of an object with known properties (unknown ones allowed), `required` naming those that
 * must be there.
 *
 * @example
 * const track: ObjectSchema = messageSchemas.track;
 * track.required; // ['version', 'userId', 'timestamp', 'type', 'event']
 */
export interface ObjectSchema<
  P extends Readonly<Record<string, FieldSchema>> = Readonly<Record<string, FieldSchema>>,
  R extends keyof P & string = keyof P & string,
> {
  readonly $id?: string;
  readonly title?: string;
  readonly description?: string;
  readonly type: 'object';
  readonly required?: readonly R[];
  readonly properties: P;
}

/**
 * Any JSON Schema the messages and calls are made of.
 *
 * @example
 * const fields: FieldSchema[] = Object.values(messageSchemas.track.properties);
 */
export type FieldSchema = StringSchema | LiteralSchema | AbsentSchema | OpenObjectSchema | ObjectSchema;

/**
 * The TypeScript type one of these schemas describes: required properties as is, the others optional.
 *
 * @example
 * type Context = SchemaType<typeof ContextSchema>; // { device?: { model?: string; type?: string }; ... }
 */
export type SchemaType<S> = S extends AbsentSchema
  ? never
  : S extends LiteralSchema<infer C>
    ? C
    : S extends StringSchema
      ? string
      : S extends OpenObjectSchema
        ? { [key: string]: unknown }
        : S extends ObjectSchema<infer P, infer R>
          ? { -readonly [K in keyof P as K extends R ? K : never]: SchemaType<P[K]> } & {
              -readonly [K in keyof P as K extends R ? never : K]?: SchemaType<P[K]>;
            } extends infer T
            ? { [K in keyof T]: T[K] }
            : never
          : unknown;

/** `{ type: 'string' }`, optionally with a pattern (anchored) and the description errors quote. */
export const string = (options: { pattern?: string; description?: string } = {}): StringSchema => ({
  ...options,
  type: 'string',
});

/** `{ const: value, type }`. */
export const literal = <const C extends string | number>(value: C): LiteralSchema<C> =>
  ({ const: value, type: typeof value === 'string' ? 'string' : 'number' }) as LiteralSchema<C>;

/** A field that must be absent, saying why. */
export const absent = (description: string): AbsentSchema => ({ description, not: {} });

/** An object with open keys and values of any kind. */
export const openObject = (): OpenObjectSchema => ({ type: 'object', patternProperties: { '^(.*)$': {} } });

/**
 * An object with these properties; `required` lists those that must be present (JSON Schema's own
 * word, so the schema reads the same in code and in the exported JSON).
 */
export function object<const P extends Readonly<Record<string, FieldSchema>>, const R extends keyof P & string = never>(
  properties: P,
  required: readonly R[] = [],
  meta: { $id?: string; title?: string; description?: string } = {},
): ObjectSchema<P, R> {
  // Key order as the published schemas have it ($id, title, description, type, required, properties).
  return { ...meta, type: 'object', ...(required.length > 0 ? { required } : {}), properties };
}

/** Which of the shapes above a schema is; `{}` (no keyword) accepts anything. */
export type SchemaKind = 'absent' | 'literal' | 'string' | 'open-object' | 'object' | 'anything';

/**
 * Names a schema's shape, for the checks. Throws on any other JSON Schema: the checks know only these
 * shapes, and a keyword they skipped would be a check silently not made.
 */
export function kindOf(schema: object): SchemaKind {
  const s = schema as Record<string, unknown>;
  if ('not' in s) return 'absent';
  if ('const' in s) return 'literal';
  if (s['type'] === 'string' && !('format' in s || 'minLength' in s || 'maxLength' in s)) return 'string';
  if (s['type'] === 'object' && JSON.stringify(s['patternProperties']) === '{"^(.*)$":{}}' && !('properties' in s))
    return 'open-object';
  if (s['type'] === 'object' && 'properties' in s && !('additionalProperties' in s)) return 'object';
  if (Object.keys(s).length === 0) return 'anything';
  throw new TypeError(`hookgate's message checks do not know this schema: ${JSON.stringify(schema)}`);
}

/** An object a schema of type `object` accepts (not null, not an array). */
export const isObjectLike = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** An object with open keys (as above, and not a Date or bytes). */
export const isRecordLike = (v: unknown): v is Record<string, unknown> =>
  isObjectLike(v) && !(v instanceof Date) && !(v instanceof Uint8Array);
