// schema-compiler.ts for the Node build only (dist/node.js, the `node` condition of `import`, which Bun
// and Deno also take): each rule compiled once by Ajv into a JavaScript function, as Segment's Typewriter
// does, with the options `hookgate types` precompiles with (plan-ajv.ts). Ajv compiles by code generation
// from strings, which Workers forbid: this file is swapped in by tsup.config.ts and never reaches the
// runtime-neutral build.
import { precompiledCheck, type PrecompiledValidator, type SchemaCheck } from './json-schema-validator.js';
import { ajvSchema, planAjv } from './plan-ajv.js';

/**
 * Whether rules compiled here may have `patternProperties` (internal): yes, Ajv runs them on RE2 too.
 *
 * @example
 * loadTrackingPlan(plan, { patternProperties: COMPILES_PATTERN_PROPERTIES });
 */
export const COMPILES_PATTERN_PROPERTIES = true;

/**
 * A compiler of rule schemas for one plan (internal), one Ajv instance per plan: each schema compiled
 * once, its errors worded as the interpreter's (`precompiledCheck`).
 *
 * @example
 * const compile = schemaCompiler();
 * const check = compile({ type: 'object', required: ['event'] });
 */
export function schemaCompiler(): (schema: Record<string, unknown>) => SchemaCheck {
  const ajv = planAjv();
  return (schema) => precompiledCheck(ajv.compile(ajvSchema(schema)) as PrecompiledValidator);
}
