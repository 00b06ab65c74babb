import { Kind, OptionalKind, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/** A compiled yes/no check of one schema. */
export type Check = (value: unknown) => boolean;

const compiled = new WeakMap<TSchema, Check>();

const isRecordObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date) && !(v instanceof Uint8Array);

/**
 * Turns a TypeBox schema into a tree of closures that answers the same yes/no as `Value.Check`,
 * several times faster, and without generating code from strings (so it runs on Workers): regular
 * expressions are built once, keys and kinds are resolved once. Kinds the messages and calls do
 * not use fall back to `Value.Check`. Only the yes/no is compiled; the errors of a failing value
 * still come from TypeBox, so their wording and paths stay the same.
 *
 * @example
 * const isTrack = compileCheck(messageSchemas.track);
 * isTrack(fixtures.track); // true
 */
export function compileCheck(schema: TSchema): Check {
  const hit = compiled.get(schema);
  if (hit) return hit;
  const check = build(schema);
  compiled.set(schema, check);
  return check;
}

function build(schema: TSchema): Check {
  switch (schema[Kind]) {
    case 'Unknown':
    case 'Any':
      return () => true;
    case 'Never':
      return () => false;
    case 'Literal': {
      const expected = schema.const;
      return (v) => v === expected;
    }
    case 'Boolean':
      return (v) => typeof v === 'boolean';
    case 'Number':
      if (hasBounds(schema)) break;
      return (v) => typeof v === 'number' && Number.isFinite(v);
    case 'String': {
      if (schema.minLength !== undefined || schema.maxLength !== undefined || schema.format !== undefined) break;
      if (schema.pattern === undefined) return (v) => typeof v === 'string';
      const pattern = new RegExp(schema.pattern);
      return (v) => typeof v === 'string' && pattern.test(v);
    }
    case 'Record': {
      const patterns = Object.entries((schema.patternProperties ?? {}) as Record<string, TSchema>);
      if (schema.additionalProperties !== undefined || patterns.length !== 1) break;
      const [keyPattern, valueSchema] = patterns[0] as [string, TSchema];
      if (keyPattern !== '^(.*)$' && keyPattern !== '^.*$') break;
      const item = compileCheck(valueSchema);
      if (valueSchema[Kind] === 'Unknown') return isRecordObject;
      return (v) => {
        if (!isRecordObject(v)) return false;
        for (const key in v) if (Object.hasOwn(v, key) && !item(v[key])) return false;
        return true;
      };
    }
    case 'Object': {
      if (schema.additionalProperties !== undefined || hasBounds(schema)) break;
      const props = Object.entries((schema.properties ?? {}) as Record<string, TSchema>).map(([key, s]) => ({
        key,
        optional: s[OptionalKind] === 'Optional',
        check: compileCheck(s),
      }));
      return (v) => {
        if (!isRecordObject(v)) return false;
        for (const p of props) {
          const present = p.key in v;
          if (!present) {
            if (p.optional) continue;
            return false;
          }
          const value = v[p.key];
          if (value === undefined && p.optional) continue;
          if (!p.check(value)) return false;
        }
        return true;
      };
    }
    case 'Union': {
      const options = (schema.anyOf as TSchema[]).map(compileCheck);
      return (v) => options.some((c) => c(v));
    }
    default:
      break;
  }
  return (v) => Value.Check(schema, v);
}

function hasBounds(schema: TSchema): boolean {
  return [
    'minimum',
    'maximum',
    'exclusiveMinimum',
    'exclusiveMaximum',
    'multipleOf',
    'minProperties',
    'maxProperties',
  ].some((k) => schema[k] !== undefined);
}
