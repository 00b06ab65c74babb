// How a plan given as JSON has its rules compiled, in the runtime-neutral build (Workers, browsers, and
// the TypeScript sources): `@cfworker/json-schema`'s interpreter, no code generation, because Cloudflare
// Workers forbid code generation from strings, with every `pattern` moved to the linear-time engine
// (interpreted-patterns.ts). The Node build (dist/node.js) swaps in schema-compiler.node.ts, which
// compiles each rule with Ajv (tsup.config.ts).
import { withLinearPatterns } from './interpreted-patterns.js';
import { interpretedCheck, type SchemaCheck } from './json-schema-validator.js';

/**
 * Whether rules compiled here may have `patternProperties` (internal): the interpreter matches property
 * names with JavaScript's backtracking engine, so here they are refused when the plan is read.
 *
 * @example
 * loadTrackingPlan(plan, { patternProperties: COMPILES_PATTERN_PROPERTIES });
 */
export const COMPILES_PATTERN_PROPERTIES = false;

/**
 * A compiler of rule schemas for one plan (internal): prepares a schema for the interpreter once (it
 * was checked against the meta-schema when the plan was read) and returns its check, run once per message.
 *
 * @example
 * const compile = schemaCompiler();
 * const check = compile({ type: 'object', required: ['event'] });
 */
export function schemaCompiler(): (schema: Record<string, unknown>) => SchemaCheck {
  return (schema) => interpretedCheck(withLinearPatterns(schema));
}
