// The one Ajv instance set-up for tracking plans: the Node build's compiler of rules
// (schema-compiler.node.ts) and `hookgate types` (its precompiled validators) both build theirs here, so a
// rule means the same in both: every error listed, Segment's formats, and every `pattern` run on the
// linear-time engine (linear-pattern.ts), never on JavaScript's backtracking one. Ajv generates code from
// strings, which Workers forbid: the runtime-neutral build of the receiver never imports this file.
import { _, Ajv, Name, str, stringify, type CodeKeywordDefinition, type Options } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import { URL_PATTERN, LINEAR_FORMATS } from './linear-formats.js';
import { linearRegExp } from './linear-pattern.js';
import { duplicateItems } from './unique-items.js';

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
export const LINEAR_ENGINE = Object.assign((pattern: string) => linearRegExp(pattern), {
  code: 'hookgateLinearRegExp',
});

/**
 * `duplicateItems` as Ajv's generated code calls it, and the name the standalone code of `hookgate types`
 * calls it by (the module it writes imports `duplicateItems` from core under that name) (internal).
 *
 * @example
 * `import { duplicateItems as ${UNIQUE_ITEMS.code} } from '@hookgate/core';`
 */
export const UNIQUE_ITEMS = Object.assign((items: readonly unknown[]) => duplicateItems(items), {
  code: 'hookgateDuplicateItems',
});

/**
 * `uniqueItems` in one pass (unique-items.ts) in place of Ajv's, which compares every pair of items whose
 * type the schema does not pin to a scalar, and keeps scalars in a plain object (`__proto__` inherited).
 */
const UNIQUE_ITEMS_KEYWORD: CodeKeywordDefinition = {
  keyword: 'uniqueItems',
  type: 'array',
  schemaType: 'boolean',
  error: {
    message: ({ params: { i, j } }) => str`must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
    params: ({ params: { i, j } }) => _`{i: ${i}, j: ${j}}`,
  },
  code(cxt) {
    const { gen, data, schema } = cxt;
    if (schema !== true) return;
    const find = gen.scopeValue('func', { ref: UNIQUE_ITEMS, code: new Name(UNIQUE_ITEMS.code) });
    const pair = gen.const('pair', _`${find}(${data})`);
    cxt.setParams({ j: _`${pair}[0]`, i: _`${pair}[1]` });
    cxt.fail(_`${pair} !== undefined`);
  },
};

/**
 * A new Ajv instance for a tracking plan's rules (internal): `allErrors`, not strict (Segment's schemas
 * carry keywords of their own), the formats of ajv-formats (`url` on RE2: linear-formats.ts), patterns on
 * RE2 (`linearRegExp`) and `uniqueItems` in one pass.
 * `code` adds code-generation options, e.g. `{ source: true, esm: true }` for standalone code.
 *
 * @example
 * const ajv = planAjv();
 * const validate = ajv.compile({ type: 'string', pattern: '^(a+)+$' });
 * validate('a'.repeat(10_000) + '!'); // false, in milliseconds
 */
export function planAjv(code: NonNullable<Options['code']> = {}): Ajv {
  // Standalone code reads its formats from this expression: ajv-formats' own, `url` on the linear engine.
  const formats = _`{...require("ajv-formats/dist/formats").fullFormats, url: ${new Name(LINEAR_ENGINE.code)}(${stringify(URL_PATTERN)}).test}`;
  // Long enums and required lists as loops: their code, and its compile time, no longer grow with them.
  const options = { allErrors: true, strict: false, loopEnum: 20, loopRequired: 20 };
  const ajv = addFormats(new Ajv({ ...options, code: { ...code, formats, regExp: LINEAR_ENGINE } }));
  for (const [name, test] of Object.entries(LINEAR_FORMATS)) ajv.addFormat(name, test);
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword(UNIQUE_ITEMS_KEYWORD);
  return ajv;
}
