// Running a rule's JSON Schema. Core's runtime-neutral build generates no code (it must run on Cloudflare
// Workers, where code generation from strings is forbidden), so there a plan given as JSON is checked by
// `@cfworker/json-schema`, a well-kept draft-07 interpreter; each rule's schema is prepared once. On Node
// (dist/node.js) each rule is compiled by Ajv instead (schema-compiler.node.ts), and the module `hookgate
// types` writes carries each rule's validator precompiled by Ajv's standalone code generation (plain
// functions, no eval, about a hundred times faster): `precompiledCheck` reads both, in the same words.
import { Validator } from '@cfworker/json-schema';
import { DRAFT_07_META_SCHEMA } from './draft-07-meta-schema.js';
import { PATTERN_FORMAT } from './interpreted-patterns.js';

/**
 * One way a message breaks its tracking plan: where (`properties.total`, `traits.email`, `(root)` for the
 * event itself, Segment's spelling) and what, in words.
 *
 * @example
 * const violation: PlanViolation = { path: 'properties.total', message: 'must be number (got string)', keyword: 'type' };
 */
export interface PlanViolation {
  path: string;
  message: string;
  /** The JSON Schema keyword that failed (`type`, `required`, `enum`, …). */
  keyword: string;
  /** The rule broken, e.g. `TRACK "Order Completed" v2` or `COMMON v1`. */
  rule?: string;
}

/** A prepared schema: the violations of a value, empty when it is valid (internal). */
export type SchemaCheck = (value: unknown) => readonly PlanViolation[];

const VALID: readonly PlanViolation[] = Object.freeze([]);

/**
 * A validator precompiled by Ajv (`hookgate types` writes them): returns whether the value is valid and
 * leaves Ajv's errors on its `errors` property.
 *
 * @example
 * const validate: PrecompiledValidator = Object.assign((value: unknown) => typeof value === 'object', { errors: null });
 */
export interface PrecompiledValidator {
  (value: unknown): boolean;
  errors?:
    | readonly {
        instancePath: string;
        keyword: string;
        params: Record<string, unknown>;
        message?: string;
        schemaPath?: string;
      }[]
    | null;
}

/** `/properties/total` → `properties.total`; the event itself is `(root)`. */
function dotted(pointer: string, child?: string): string {
  const parts =
    pointer === ''
      ? []
      : pointer
          .slice(1)
          .split('/')
          .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) parts.push(child);
  return parts.length === 0 ? '(root)' : parts.join('.');
}

function valueAt(root: unknown, pointer: string): unknown {
  let value = root;
  for (const part of pointer === '' ? [] : pointer.slice(1).split('/')) {
    value = (value as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return value;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Keywords whose error only says that something inside failed: the inner error says what. */
const WRAPPERS = new Set(['properties', 'items', '$ref', 'allOf', 'patternProperties']);

/** Keywords whose next token in a schema pointer is a name or an index, not a keyword. */
const NAMED = new Set([
  'properties',
  'patternProperties',
  'definitions',
  '$defs',
  'dependencies',
  'allOf',
  'anyOf',
  'oneOf',
]);

/**
 * Whether a schema pointer goes inside `keyword`'s schema (`#/properties/a/contains/const` is inside
 * `contains`; `#/properties/contains/type` is not): such errors only explain the keyword's own, which
 * says what failed (`contains`, `propertyNames`), and only one of the two validators lists them.
 */
function insideKeyword(pointer: string, keyword: string): boolean {
  const tokens = pointer.replace(/^#/, '').split('/').slice(1);
  for (let i = 0; i < tokens.length - 1; i++) {
    if (tokens[i] === keyword) return true;
    if (NAMED.has(tokens[i]!) || (tokens[i] === 'items' && /^\d+$/.test(tokens[i + 1]!))) i++;
  }
  return false;
}

/** Keywords whose inner errors are left out, in both validators' lists. */
const EXPLAINED = ['contains', 'propertyNames'] as const;
const explainsOnly = (pointer: string, keyword: string) =>
  EXPLAINED.some((k) => keyword !== k && insideKeyword(pointer, k));

/** Ajv's words for a keyword whose limit is the last number of the interpreter's message (`1 is less than 3.`). */
const LIMIT_WORDS: Readonly<Partial<Record<string, (limit: string) => string>>> = {
  minimum: (n) => `must be >= ${n}`,
  maximum: (n) => `must be <= ${n}`,
  exclusiveMinimum: (n) => `must be > ${n}`,
  exclusiveMaximum: (n) => `must be < ${n}`,
  multipleOf: (n) => `must be multiple of ${n}`,
  minLength: (n) => `must NOT have fewer than ${n} characters`,
  maxLength: (n) => `must NOT have more than ${n} characters`,
  minItems: (n) => `must NOT have fewer than ${n} items`,
  maxItems: (n) => `must NOT have more than ${n} items`,
  minProperties: (n) => `must NOT have fewer than ${n} properties`,
  maxProperties: (n) => `must NOT have more than ${n} properties`,
};

/** Ajv's words for keywords whose message needs nothing from the interpreter's. */
const FIXED_WORDS: Readonly<Partial<Record<string, string>>> = {
  const: 'must be equal to constant',
  not: 'must NOT be valid',
  anyOf: 'must match a schema in anyOf',
  oneOf: 'must match exactly one schema in oneOf',
  contains: 'must contain at least 1 valid item(s)',
  'false schema': 'boolean schema is false',
};

/** Ajv's words for a missing property another one depends on (`dependencies`). */
const dependencyWords = (property: string) => `is required when ${property} is present`;

/** An error as the interpreter lists it. */
interface InterpretedError {
  instanceLocation: string;
  keywordLocation: string;
  keyword: string;
  error: string;
}

/** The interpreter's words for a missing property another one depends on. */
const MISSING_DEPENDENCY = /^Instance has "(.*)" but does not have "(.*)"\.$/s;

/**
 * Whether an error of the interpreter is followed by the error of the `false` schema it holds (at the
 * value inside): a failing `additionalProperties: false` or `additionalItems: false`. A schema's own
 * errors come there instead when it holds one.
 */
const holdsFalse = (error: InterpretedError, next: InterpretedError | undefined) =>
  next?.keyword === 'false' && next.instanceLocation.startsWith(`${error.instanceLocation}/`);

/**
 * Which of the interpreter's errors are said, as Ajv says them: decided on the raw errors, before any is
 * worded. Left out: wrappers and inner errors whose keyword says what failed, `additionalProperties` and
 * `additionalItems` holding a schema (its own errors say it) and the `false` schema's error beside them
 * when they are `false`, a dependant schema's (its errors say it), and an array too long said again.
 */
function saidErrors(errors: readonly InterpretedError[]): number[] {
  const said: number[] = [];
  const tooLong = new Set<string>();
  errors.forEach((e, i) => {
    if (WRAPPERS.has(e.keyword) || explainsOnly(e.keywordLocation, e.keyword)) return;
    const before = errors[i - 1]?.keyword;
    if (e.keyword === 'false' && (before === 'additionalProperties' || before === 'additionalItems')) return;
    if (e.keyword === 'additionalProperties' && !holdsFalse(e, errors[i + 1])) return;
    if (e.keyword === 'additionalItems') {
      if (!holdsFalse(e, errors[i + 1]) || tooLong.has(e.instanceLocation)) return;
      tooLong.add(e.instanceLocation);
    }
    if (e.keyword === 'dependencies' && !MISSING_DEPENDENCY.test(e.error)) return;
    said.push(i);
  });
  return said;
}

/**
 * The interpreter's verdicts in the words the precompiled validators (Ajv) use, so both read alike
 * (`next`: the error after it, which says what an `additionalItems: false` met).
 */
function interpretedViolation(
  error: InterpretedError,
  root: unknown,
  schema: unknown,
  next?: InterpretedError,
): PlanViolation {
  const pointer = error.instanceLocation.replace(/^#/, '');
  const quoted = /"([^"]*)"/.exec(error.error)?.[1];
  switch (error.keyword) {
    case 'required':
      return { path: dotted(pointer, quoted), message: 'is required', keyword: 'required' };
    case 'dependencies': {
      const [, property, missing] = MISSING_DEPENDENCY.exec(error.error) ?? [];
      if (property === undefined || missing === undefined) {
        return { path: dotted(pointer), message: error.error, keyword: 'dependencies' };
      }
      return { path: dotted(pointer, missing), message: dependencyWords(property), keyword: 'dependencies' };
    }
    case 'false':
      return { path: dotted(pointer), message: FIXED_WORDS['false schema']!, keyword: 'false schema' };
    case 'additionalItems': {
      // How many items the array may have is the index of the first one past them.
      const first = next?.instanceLocation.slice(error.instanceLocation.length + 1);
      const message = first === undefined ? error.error : `must NOT have more than ${first} items`;
      return { path: dotted(pointer), message, keyword: 'additionalItems' };
    }
    case 'propertyNames':
      return { path: dotted(pointer), message: `property name "${quoted}" must be valid`, keyword: 'propertyNames' };
    case 'if': {
      const branch = /"(then|else)"/.exec(error.error)?.[1] ?? 'then';
      return { path: dotted(pointer), message: `must match "${branch}" schema`, keyword: 'if' };
    }
    case 'additionalProperties':
      return {
        path: dotted(pointer, quoted),
        message: 'is not allowed (additionalProperties is false)',
        keyword: 'additionalProperties',
      };
    case 'type': {
      const expected = /Expected (.*)\.$/.exec(error.error)?.[1]?.replace(/"/g, '') ?? '';
      const names = expected.replace(/^\[|\]$/g, '').replace(/, ?/g, ',');
      return {
        path: dotted(pointer),
        message: `must be ${names} (got ${typeName(valueAt(root, pointer))})`,
        keyword: 'type',
      };
    }
    case 'enum': {
      const allowed = /any of (\[.*\])\.$/.exec(error.error)?.[1];
      let list = allowed ?? '';
      try {
        if (allowed) list = (JSON.parse(allowed) as unknown[]).map((v) => JSON.stringify(v)).join(', ');
      } catch {
        // keep the interpreter's text
      }
      return { path: dotted(pointer), message: `must be equal to one of the allowed values: ${list}`, keyword: 'enum' };
    }
    case 'format': {
      const name = /format "(.*)"\.$/s.exec(error.error)?.[1] ?? quoted ?? '';
      if (name.startsWith(PATTERN_FORMAT)) {
        const message = `must match pattern "${name.slice(PATTERN_FORMAT.length)}"`;
        return { path: dotted(pointer), message, keyword: 'pattern' };
      }
      return { path: dotted(pointer), message: `must match format "${name}"`, keyword: 'format' };
    }
    case 'pattern': {
      const pattern = valueAt(schema, error.keywordLocation.replace(/^#/, ''));
      const message = typeof pattern === 'string' ? `must match pattern "${pattern}"` : 'must match pattern';
      return { path: dotted(pointer), message, keyword: 'pattern' };
    }
    case 'uniqueItems': {
      const [j, k] = error.error.match(/\d+/g) ?? [];
      const message = `must NOT have duplicate items (items ## ${j} and ${k} are identical)`;
      return { path: dotted(pointer), message, keyword: 'uniqueItems' };
    }
    default: {
      const limit = error.error.match(/-?\d+(?:\.\d+)?(?:e[+-]?\d+)?/g)?.at(-1);
      const words = LIMIT_WORDS[error.keyword];
      const message = words && limit !== undefined ? words(limit) : FIXED_WORDS[error.keyword];
      return { path: dotted(pointer), message: message ?? error.error, keyword: error.keyword };
    }
  }
}

/**
 * Prepares a JSON Schema (draft-07) once into a check giving a value's violations, with
 * `@cfworker/json-schema` (no code generation: safe on Cloudflare Workers).
 *
 * @example
 * const check = interpretedCheck({ type: 'object', properties: { properties: { type: 'object', required: ['total'] } } });
 * check({ properties: {} }); // [{ path: 'properties.total', message: 'is required', keyword: 'required' }]
 */
export function interpretedCheck(schema: Record<string, unknown>): SchemaCheck {
  const validator = new Validator(schema, '7', false);
  return (value) => {
    const result = validator.validate(value);
    if (result.valid) return VALID;
    const { errors } = result;
    const said = saidErrors(errors);
    return said.length === 0 ? VALID : said.map((i) => interpretedViolation(errors[i]!, value, schema, errors[i + 1]));
  };
}

/**
 * A check from a validator Ajv precompiled (the module `hookgate types` writes), its errors in the same
 * shape as `interpretedCheck`'s.
 *
 * @example
 * const check = precompiledCheck(trackingPlan.validators[0]);
 */
export function precompiledCheck(validate: PrecompiledValidator): SchemaCheck {
  return (value) => {
    if (validate(value)) return VALID;
    const errors = (validate.errors ?? []).filter((e) => !explainsOnly(e.schemaPath ?? '', e.keyword));
    return errors.map((error) => {
      const { params } = error;
      const child =
        error.keyword === 'required' || error.keyword === 'dependencies'
          ? (params.missingProperty as string)
          : error.keyword === 'additionalProperties'
            ? (params.additionalProperty as string)
            : undefined;
      let message = error.message ?? `fails ${error.keyword}`;
      if (error.keyword === 'type') message = `${message} (got ${typeName(valueAt(value, error.instancePath))})`;
      if (error.keyword === 'enum') {
        message = `${message}: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
      }
      if (error.keyword === 'required') message = 'is required';
      if (error.keyword === 'dependencies') message = dependencyWords(params.property as string);
      if (error.keyword === 'additionalProperties') message = 'is not allowed (additionalProperties is false)';
      if (error.keyword === 'propertyNames') message = `property name "${params.propertyName as string}" must be valid`;
      return { path: dotted(error.instancePath, child), message, keyword: error.keyword };
    });
  };
}

let metaValidator: Validator | undefined;
/** The meta-schema's errors that only say a subschema failed. */
const META_WRAPPERS = new Set(['anyOf', 'additionalProperties', 'additionalItems', 'dependencies', 'false']);

/**
 * The schema with each non-empty `enum` and `examples` list cut to one `null`: the meta-schema asks only
 * that they be non-empty lists (any values), so the verdict is the same, without visiting a plan's
 * hundreds of thousands of enum values one by one.
 */
function withoutEnumValues(schema: Record<string, unknown>): unknown {
  return JSON.parse(
    JSON.stringify(schema, (key, value: unknown) =>
      (key === 'enum' || key === 'examples') && Array.isArray(value) && value.length > 0 ? [null] : value,
    ),
  ) as unknown;
}

/**
 * The problems of a JSON Schema itself, checked against the draft-07 meta-schema (empty when it is a
 * valid schema), each with its path inside the schema.
 *
 * @example
 * schemaProblems({ type: 'objekt' })[0]?.path; // 'type'
 */
export function schemaProblems(schema: Record<string, unknown>): { path: string; message: string }[] {
  metaValidator ??= new Validator(DRAFT_07_META_SCHEMA, '7', false);
  const result = metaValidator.validate(withoutEnumValues(schema));
  if (result.valid) return [];
  const worded = (e: (typeof result.errors)[number]) => interpretedViolation(e, schema, DRAFT_07_META_SCHEMA);
  // The deepest error says most: `properties.total.type` rather than "property total does not match".
  const leaves = result.errors.filter((e) => !WRAPPERS.has(e.keyword) && !META_WRAPPERS.has(e.keyword)).map(worded);
  const list = leaves.length > 0 ? leaves : result.errors.map(worded);
  list.sort((a, b) => b.path.split('.').length - a.path.split('.').length);
  return list.map(({ path, message }) => ({ path, message }));
}
