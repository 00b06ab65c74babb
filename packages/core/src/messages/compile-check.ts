import {
  isObjectLike,
  isRecordLike,
  kindOf,
  type FieldSchema,
  type LiteralSchema,
  type ObjectSchema,
  type StringSchema,
} from './schema-parts.js';

/** A compiled yes/no check of one schema. */
export type Check = (value: unknown) => boolean;

const compiled = new WeakMap<object, Check>();

/**
 * Turns one of the messages' or calls' JSON Schemas into a tree of closures that answers yes/no
 * without generating code from strings (so it runs on Workers): regular expressions are built once,
 * keys and kinds resolved once. It answers yes exactly when `collectIssues` finds nothing; that one
 * explains the no.
 *
 * @example
 * const isTrack = compileCheck(messageSchemas.track);
 * isTrack(fixtures.track); // true
 */
export function compileCheck(schema: FieldSchema | Record<string, never>): Check {
  const hit = compiled.get(schema);
  if (hit) return hit;
  const check = build(schema);
  compiled.set(schema, check);
  return check;
}

function build(schema: FieldSchema | Record<string, never>): Check {
  switch (kindOf(schema)) {
    case 'anything':
      return () => true;
    case 'absent':
      return () => false;
    case 'literal': {
      const expected = (schema as LiteralSchema).const;
      return (v) => v === expected;
    }
    case 'string': {
      const { pattern } = schema as StringSchema;
      if (pattern === undefined) return (v) => typeof v === 'string';
      const regex = new RegExp(pattern);
      return (v) => typeof v === 'string' && regex.test(v);
    }
    case 'open-object':
      // The only open objects are `{ '^(.*)$': {} }`: any key, any value.
      return isRecordLike;
    case 'object': {
      const { properties, required = [] } = schema as ObjectSchema;
      const props = Object.entries(properties).map(([key, s]) => ({
        key,
        required: required.includes(key),
        check: compileCheck(s),
      }));
      return (v) => {
        if (!isObjectLike(v)) return false;
        for (const p of props) {
          const value = v[p.key];
          // An optional field given as `undefined` counts as absent (as TypeBox had it).
          if (p.required ? !Object.hasOwn(v, p.key) || !p.check(value) : value !== undefined && !p.check(value))
            return false;
        }
        return true;
      };
    }
  }
}
