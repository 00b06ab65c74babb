// A small, independent JSON Schema checker (the keywords core's schemas use), so that the exported
// schemas are tested by something other than the TypeBox code that produced them.

type Schema = Record<string, unknown> | boolean;

/** Errors of `value` against `schema`, as `path: problem` lines; empty when valid. */
export function checkJsonSchema(schema: Schema, value: unknown, path = '$'): string[] {
  if (schema === true) return [];
  if (schema === false) return [`${path}: no value is allowed here`];
  const errors: string[] = [];
  const known = new Set([
    '$schema',
    '$id',
    'title',
    'description',
    'type',
    'const',
    'enum',
    'pattern',
    'required',
    'properties',
    'patternProperties',
    'additionalProperties',
    'not',
    'oneOf',
    'anyOf',
    'allOf',
    'items',
    'discriminator',
  ]);
  for (const key of Object.keys(schema)) if (!known.has(key)) errors.push(`${path}: unsupported keyword ${key}`);

  if ('type' in schema) {
    const types = ([] as unknown[]).concat(schema.type);
    if (!types.some((t) => hasType(value, t as string))) errors.push(`${path}: expected ${types.join('|')}`);
  }
  if ('const' in schema && !deepEqual(value, schema.const))
    errors.push(`${path}: expected ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => deepEqual(e, value))) errors.push(`${path}: not in enum`);
  if (typeof schema.pattern === 'string' && typeof value === 'string' && !new RegExp(schema.pattern, 'u').test(value)) {
    errors.push(`${path}: does not match ${schema.pattern}`);
  }
  if (isObject(value)) {
    for (const key of (schema.required as string[] | undefined) ?? []) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) errors.push(`${path}.${key}: required`);
    }
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    const patterns = (schema.patternProperties ?? {}) as Record<string, Schema>;
    for (const [key, v] of Object.entries(value)) {
      let matched = false;
      if (Object.prototype.hasOwnProperty.call(props, key)) {
        matched = true;
        errors.push(...checkJsonSchema(props[key]!, v, `${path}.${key}`));
      }
      for (const [re, sub] of Object.entries(patterns)) {
        if (new RegExp(re, 'u').test(key)) {
          matched = true;
          errors.push(...checkJsonSchema(sub, v, `${path}.${key}`));
        }
      }
      if (!matched && 'additionalProperties' in schema) {
        errors.push(...checkJsonSchema(schema.additionalProperties as Schema, v, `${path}.${key}`));
      }
    }
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    value.forEach((v, i) => errors.push(...checkJsonSchema(schema.items as Schema, v, `${path}[${i}]`)));
  }
  if (schema.not !== undefined && checkJsonSchema(schema.not as Schema, value, path).length === 0) {
    errors.push(`${path}: must not match a forbidden schema`);
  }
  if (Array.isArray(schema.allOf))
    for (const s of schema.allOf) errors.push(...checkJsonSchema(s as Schema, value, path));
  if (
    Array.isArray(schema.anyOf) &&
    !schema.anyOf.some((s) => checkJsonSchema(s as Schema, value, path).length === 0)
  ) {
    errors.push(`${path}: matches none of anyOf`);
  }
  if (Array.isArray(schema.oneOf)) {
    const n = schema.oneOf.filter((s) => checkJsonSchema(s as Schema, value, path).length === 0).length;
    if (n !== 1) errors.push(`${path}: matches ${n} of oneOf, expected exactly 1`);
  }
  return errors;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function hasType(v: unknown, t: string): boolean {
  switch (t) {
    case 'object':
      return isObject(v);
    case 'array':
      return Array.isArray(v);
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'integer':
      return Number.isInteger(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'null':
      return v === null;
    default:
      throw new Error(`unknown JSON Schema type ${t}`);
  }
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
