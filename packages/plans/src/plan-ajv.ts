// The one Ajv instance set-up for tracking plans: the Node build's compiler of rules
// (schema-compiler.node.ts) and `hookgate types` (its precompiled validators) both build theirs here, so a
// rule means the same in both: every error listed, Segment's formats, and every `pattern` run on the
// linear-time engine (linear-pattern.ts), never on JavaScript's backtracking one. Ajv generates code from
// strings, which Workers forbid: the runtime-neutral build of the receiver never imports this file.
import { Ajv, type Options } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import { linearRegExp } from './linear-pattern.js';

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
 * A new Ajv instance for a tracking plan's rules (internal): `allErrors`, not strict (Segment's schemas
 * carry keywords of their own), the formats of ajv-formats, and patterns on RE2 (`linearRegExp`).
 * `code` adds code-generation options, e.g. `{ source: true, esm: true }` for standalone code.
 *
 * @example
 * const ajv = planAjv();
 * const validate = ajv.compile({ type: 'string', pattern: '^(a+)+$' });
 * validate('a'.repeat(10_000) + '!'); // false, in milliseconds
 */
export function planAjv(code: NonNullable<Options['code']> = {}): Ajv {
  return addFormats(new Ajv({ allErrors: true, strict: false, code: { ...code, regExp: LINEAR_ENGINE } }));
}
