// schema-compiler.ts for the Node build only (dist/node.js, the `node` condition of `import`, which Bun
// and Deno also take): each rule compiled once by Ajv into a JavaScript function, as Segment's Typewriter
// does, with the options `hookgate types` precompiles with (plan-ajv.ts). Ajv compiles by code generation
// from strings, which Workers forbid: this file is swapped in by tsup.config.ts and never reaches the
// runtime-neutral build. Ajv's compile costs 150–750 µs a keyword on this machine under load, paid by a
// rule's first message: a rule past `MAX_COMPILED_KEYWORDS` is interpreted as the neutral build does (a few ms to
// prepare), unless it has `patternProperties`, which only Ajv runs on the linear engine.
import { withLinearPatterns } from './interpreted-patterns.js';
import type { PrecompiledValidator } from '@hookgate/core';
import { interpretedCheck, precompiledCheck, type SchemaCheck } from './json-schema-validator.js';
import { ajvSchema, planAjv } from './plan-ajv.js';
import { eachSubschema, expandedSize } from './schema-walk.js';

/**
 * Whether rules compiled here may have `patternProperties` (internal): yes, Ajv runs them on RE2 too.
 *
 * @example
 * loadTrackingPlan(plan, { patternProperties: COMPILES_PATTERN_PROPERTIES });
 */
export const COMPILES_PATTERN_PROPERTIES = true;

/**
 * Keywords (each `$ref` expanded) past which a rule is interpreted (internal): Ajv compiles 300 in 50–250 ms
 * under load, `anyOf` branches costing most; a rule with `patternProperties` past it is refused at start.
 *
 * @example
 * loadTrackingPlan(plan, { maxCompiledKeywords: MAX_COMPILED_KEYWORDS });
 */
export const MAX_COMPILED_KEYWORDS = 300;

/** Whether Ajv compiles `schema` (else the interpreter runs it): small rules, and any with `patternProperties`. */
function compiledByAjv(schema: Record<string, unknown>): boolean {
  if (expandedSize(schema, MAX_COMPILED_KEYWORDS).path === undefined) return true;
  let patternProperties = false;
  eachSubschema(schema, (node) => {
    patternProperties ||= node.patternProperties !== undefined;
  });
  return patternProperties;
}

/**
 * How `uniqueItems` runs for a rule (internal): in one pass where Ajv compiles it (plan-ajv.ts), on
 * every pair of items where the interpreter runs it; the cost bound of a check counts it so (check-cost.ts).
 *
 * @example
 * new CheckCost(schema, uniqueItemsCost(schema));
 */
export function uniqueItemsCost(schema: Record<string, unknown>): 'linear' | 'quadratic' {
  return compiledByAjv(schema) ? 'linear' : 'quadratic';
}

/**
 * A compiler of rule schemas for one plan (internal), one Ajv instance per plan: each schema compiled
 * once, its errors worded as the interpreter's (`precompiledCheck`), at most `maxViolations` listed.
 *
 * @example
 * const compile = schemaCompiler();
 * const check = compile({ type: 'object', required: ['event'] });
 */
export function schemaCompiler(maxViolations = Infinity): (schema: Record<string, unknown>) => SchemaCheck {
  // Unoptimized code compiles in less than half the time (a first message pays it), and runs as fast.
  const ajv = planAjv({ optimize: false });
  return (schema) => {
    if (!compiledByAjv(schema)) return interpretedCheck(withLinearPatterns(schema), maxViolations);
    return precompiledCheck(ajv.compile(ajvSchema(schema)) as PrecompiledValidator, maxViolations);
  };
}
