// schema-compiler.ts for the Node build only (dist/node.js, the `node` condition of `import`, which Bun
// and Deno also take): each rule compiled once by Ajv into a JavaScript function, as Segment's Typewriter
// does, with the options `hookgate types` precompiles with. Ajv compiles by code generation from strings, which
// Workers forbid: this file is swapped in by tsup.config.ts and never reaches the runtime-neutral build.
import { Ajv } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import { precompiledCheck, type PrecompiledValidator, type SchemaCheck } from './json-schema-validator.js';

// CommonJS with `exports.default`: the default import is the function under Node's ESM, the module
// object under some bundlers.
const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ?? addFormatsPlugin) as (
  ajv: Ajv,
) => Ajv;

/**
 * A compiler of rule schemas for one plan (internal), one Ajv instance per plan: each schema compiled
 * once, its errors worded as the interpreter's (`precompiledCheck`).
 *
 * @example
 * const compile = schemaCompiler();
 * const check = compile({ type: 'object', required: ['event'] });
 */
export function schemaCompiler(): (schema: Record<string, unknown>) => SchemaCheck {
  const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
  return (schema) => {
    // Without `$schema` (Ajv's default class knows draft-07 only by its own meta-schema) and `$id`
    // (two versions of one rule may share it), as `hookgate types` compiles them.
    const { $schema: _schema, $id: _id, ...rest } = schema;
    return precompiledCheck(ajv.compile(rest) as PrecompiledValidator);
  };
}
