// How a plan given as JSON has its rules compiled, in the runtime-neutral build (Workers, browsers, and
// the TypeScript sources): `@cfworker/json-schema`'s interpreter, no code generation, because Cloudflare
// Workers forbid code generation from strings, with every `pattern` moved to the linear-time engine
// (interpreted-patterns.ts). The Node build (dist/node.js) swaps in schema-compiler.node.ts, which
// compiles each rule with Ajv (tsup.config.ts).
import { format } from '@cfworker/json-schema';
import { withLinearPatterns } from './interpreted-patterns.js';
import { interpretedCheck, type SchemaCheck } from './json-schema-validator.js';
import { LINEAR_FORMATS } from './linear-formats.js';

/**
 * Whether rules compiled here may have `patternProperties` (internal): the interpreter matches property
 * names with JavaScript's backtracking engine, so here they are refused when the plan is read.
 *
 * @example
 * loadTrackingPlan(plan, { patternProperties: COMPILES_PATTERN_PROPERTIES });
 */
export const COMPILES_PATTERN_PROPERTIES = false;

/**
 * Keywords past which a rule with `patternProperties` is refused (internal): none are compiled here.
 *
 * @example
 * loadTrackingPlan(plan, { maxCompiledKeywords: MAX_COMPILED_KEYWORDS });
 */
export const MAX_COMPILED_KEYWORDS = Infinity;

/**
 * How `uniqueItems` runs for a rule (internal): the interpreter compares every pair of items, which the
 * cost bound of a check counts (check-cost.ts).
 *
 * @example
 * new CheckCost(schema, uniqueItemsCost(schema));
 */
export function uniqueItemsCost(_schema: Record<string, unknown>): 'linear' | 'quadratic' {
  return 'quadratic';
}

/**
 * A compiler of rule schemas for one plan (internal): prepares a schema for the interpreter once (it
 * was checked against the meta-schema when the plan was read) and returns its check, run once per message,
 * listing at most `maxViolations`. The formats the interpreter runs in more than linear time (`url`) are
 * replaced in its registry by their linear-time spellings (linear-formats.ts).
 *
 * @example
 * const compile = schemaCompiler();
 * const check = compile({ type: 'object', required: ['event'] });
 */
export function schemaCompiler(maxViolations = Infinity): (schema: Record<string, unknown>) => SchemaCheck {
  Object.assign(format, LINEAR_FORMATS);
  return (schema) => interpretedCheck(withLinearPatterns(schema), maxViolations);
}
