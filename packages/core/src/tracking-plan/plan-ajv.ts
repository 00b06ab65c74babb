// The one Ajv instance set-up for tracking plans: the Node build's compiler of rules
// (schema-compiler.node.ts) and `hookgate types` (its precompiled validators) both build theirs here, so a
// rule means the same in both: every error listed, Segment's formats, and every `pattern` run on the
// linear-time engine (linear-pattern.ts), never on JavaScript's backtracking one. Ajv generates code from
// strings, which Workers forbid: the runtime-neutral build of the receiver never imports this file.
// Where Ajv's defaults depart from draft-07 (and from the neutral build's interpreter), they are set
// here: properties are own properties (`required: ['constructor']` on `{}` fails), `multipleOf` is exact
// on decimals (0.07 of 0.01), and keywords beside a `$ref` are ignored.
import { _, Ajv, Name, str, type CodeKeywordDefinition, type KeywordCxt, type Options } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import { isMultipleOf } from './exact-decimal.js';
import { linearRegExp } from './linear-pattern.js';
import { eachSubschema } from './schema-walk.js';

// CommonJS with `exports.default`: the default import is the function under Node's ESM, the module
// object under some bundlers.
const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ?? addFormatsPlugin) as (
  ajv: Ajv,
) => Ajv;

/**
 * The engine as Ajv's `code.regExp` takes it (internal): `linearRegExp`, and the name the standalone code
 * of `hookgate types` calls it by (the module it writes imports `linearRegExp` from core under that name).
 *
 * @example
 * new Ajv({ code: { regExp: LINEAR_ENGINE } });
 */
export const LINEAR_ENGINE = Object.assign(
  // Ajv keeps one compiled pattern per `toString()`: each must say its own pattern, or every pattern of a
  // plan would run as the first one compiled.
  (pattern: string, flags = '') => ({ ...linearRegExp(pattern), toString: () => `/${pattern}/${flags}` }),
  { code: 'hookgateLinearRegExp' },
);

/**
 * `isMultipleOf` as Ajv's `multipleOf` calls it (internal), and the name the standalone code of `hookgate
 * types` calls it by (the module it writes imports `isMultipleOf` from core under that name).
 *
 * @example
 * EXACT_MULTIPLE_OF(0.07, 0.01); // true
 */
export const EXACT_MULTIPLE_OF = Object.assign((value: number, divisor: number) => isMultipleOf(value, divisor), {
  code: 'hookgateIsMultipleOf',
});

/** `multipleOf` on the decimals JSON writes (Ajv's own divides doubles: 0.07 / 0.01 = 7.000000000000001). */
const exactMultipleOf: CodeKeywordDefinition = {
  keyword: 'multipleOf',
  type: 'number',
  schemaType: 'number',
  error: {
    message: ({ schemaCode }) => str`must be multiple of ${schemaCode}`,
    params: ({ schemaCode }) => _`{multipleOf: ${schemaCode}}`,
  },
  code(cxt: KeywordCxt) {
    const check = cxt.gen.scopeValue('func', { ref: EXACT_MULTIPLE_OF, code: new Name(EXACT_MULTIPLE_OF.code) });
    cxt.fail(_`!${check}(${cxt.data}, ${cxt.schemaCode})`);
  },
};

/** The pattern of exactly the name `__proto__`. */
const PROTO_NAME = '^__proto__$';

/** Keys kept beside a `$ref`: what locates or names schemas, not what validates. */
const BESIDE_REF = new Set(['$ref', '$id', '$schema', '$comment', 'definitions', '$defs', 'title', 'description']);

/**
 * A rule's schema as Ajv is given it (internal): without the root's `$schema` and `$id` (two versions of
 * one rule may share them), as draft-07 says without the keywords beside a `$ref` (Ajv would apply
 * them; the interpreter ignores them), and a property named `__proto__` checked through `patternProperties`.
 *
 * @example
 * ajvSchema({ $ref: '#/definitions/n', maximum: 0, definitions: { n: { type: 'number' } } });
 * // { $ref: '#/definitions/n', definitions: { n: { type: 'number' } } }
 */
export function ajvSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  const copy = structuredClone(rest);
  eachSubschema(copy, (node) => {
    if (typeof node.$ref === 'string') {
      for (const key of Object.keys(node)) if (!BESIDE_REF.has(key)) delete node[key];
    }
    // Ajv skips a property named `__proto__` in `properties`; the same check through `patternProperties`
    // (which runs on own keys, and keeps the key from `additionalProperties` as `properties` would) is not skipped.
    const properties = node.properties as Record<string, unknown> | undefined;
    if (typeof properties === 'object' && properties !== null && Object.hasOwn(properties, '__proto__')) {
      const patterns = { ...(node.patternProperties as Record<string, unknown> | undefined) };
      const own = patterns[PROTO_NAME];
      patterns[PROTO_NAME] = own === undefined ? properties.__proto__ : { allOf: [own, properties.__proto__] };
      node.patternProperties = patterns;
    }
  });
  return copy;
}

/**
 * A new Ajv instance for a tracking plan's rules (internal): `allErrors`, not strict (Segment's schemas
 * carry keywords of their own), own properties only, the formats of ajv-formats, patterns on RE2
 * (`linearRegExp`) and `multipleOf` exact (`isMultipleOf`). Give it schemas through `ajvSchema`.
 * `code` adds code-generation options, e.g. `{ source: true, esm: true }` for standalone code.
 *
 * @example
 * const ajv = planAjv();
 * const validate = ajv.compile({ type: 'string', pattern: '^(a+)+$' });
 * validate('a'.repeat(10_000) + '!'); // false, in milliseconds
 */
export function planAjv(code: NonNullable<Options['code']> = {}): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    ownProperties: true,
    code: { ...code, regExp: LINEAR_ENGINE },
  });
  ajv.removeKeyword('multipleOf');
  ajv.addKeyword(exactMultipleOf);
  return addFormats(ajv);
}
