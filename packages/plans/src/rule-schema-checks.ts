// What a rule's JSON Schema must be beyond draft-07 itself, checked when a plan is read: every `pattern`
// runs on the linear-time engine and the plan's patterns stay under their weight limit (checked before
// the meta-schema, whose `format: "regex"` would only say "invalid" where RE2 names the construct), every
// `$ref` points inside the rule, no `enum` past its limit.
import { patternProblem } from './linear-pattern.js';
import type { TrackingPlanLimits } from './plan-limits.js';
import { patternWeight, type PatternWeights } from './pattern-weight.js';
import { eachSubschema, resolveLocal } from './schema-walk.js';

/**
 * A problem of a rule's schema: where (keys from the schema's root, e.g. `properties.properties.properties.sku.pattern`)
 * and what, with the fix.
 */
export interface RuleSchemaProblem {
  path: string;
  message: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How a pattern at `where` fails: past the plan's weight limit (checked first: it is not compiled then), or on RE2. */
function patternAt(
  pattern: string,
  where: string,
  limits: Required<TrackingPlanLimits>,
  weights: PatternWeights,
): RuleSchemaProblem | undefined {
  const total = weights.add(pattern);
  if (total > limits.maxPatternWeight) {
    return {
      path: where,
      message:
        `pattern ${JSON.stringify(pattern)} (weight ${patternWeight(pattern)}: its length times its largest ` +
        `repetition count) brings the plan's patterns to a weight of ${total}, over the limit of ` +
        `${limits.maxPatternWeight} (limits.maxPatternWeight): RE2 compiles x{1,1000} as a thousand x, so use + or ` +
        'smaller counts, share one pattern across rules, or raise the limit with compileTrackingPlan(plan, { limits }).',
    };
  }
  const problem = patternProblem(pattern);
  if (problem === undefined) return undefined;
  return {
    path: where,
    message:
      `pattern ${JSON.stringify(pattern)} uses ${problem}. Tracking-plan patterns run on RE2, in time linear in ` +
      'the value (no backtracking): rewrite it without look-around, back-references, possessive quantifiers or ' +
      'atomic groups (and $ for \\Z).',
  };
}

/**
 * The first `pattern` or `patternProperties` key of a rule that RE2 cannot run or that takes the plan's
 * patterns past `limits.maxPatternWeight` (`weights` counts them across the plan's rules), or, with
 * `patternProperties` false, any `patternProperties`: the runtime-neutral build runs them on no linear
 * engine (internal).
 *
 * @example
 * rulePatternProblem({ properties: { id: { type: 'string', pattern: '(?!x)' } } }, limits, true, weights)?.path;
 * // 'properties.id.pattern'
 */
export function rulePatternProblem(
  schema: Record<string, unknown>,
  limits: Required<TrackingPlanLimits>,
  patternProperties: boolean,
  weights: PatternWeights,
): RuleSchemaProblem | undefined {
  let found: RuleSchemaProblem | undefined;
  eachSubschema(schema, (node, keys) => {
    if (found) return;
    const at = (keyword: string, ...more: string[]) => [...keys, keyword, ...more].join('.');
    if (typeof node.pattern === 'string') found = patternAt(node.pattern, at('pattern'), limits, weights);
    if (!found && isObject(node.patternProperties)) {
      if (!patternProperties) {
        found = {
          path: at('patternProperties'),
          message:
            'patternProperties run only where the plan is compiled by Ajv (Node, Bun, Deno) or precompiled by ' +
            'hookgate types: pass the module hookgate types writes as trackingPlan, or list the properties.',
        };
      }
      for (const key of Object.keys(node.patternProperties)) {
        found ??= patternAt(key, at('patternProperties', key), limits, weights);
      }
    }
  });
  return found;
}

/**
 * The first problem of a rule's schema, beyond its patterns (`rulePatternProblem`), that its draft-07
 * meta-schema does not catch (internal): a `$ref` that is not local or points at nothing, an `$id` below
 * the root, an `enum` with more values than `limits.maxEnumValues`.
 *
 * @example
 * ruleSchemaProblem({ properties: { id: { $ref: '#/definitions/missing' } } }, limits)?.path;
 * // 'properties.id.$ref'
 */
export function ruleSchemaProblem(
  schema: Record<string, unknown>,
  limits: Required<TrackingPlanLimits>,
): RuleSchemaProblem | undefined {
  let found: RuleSchemaProblem | undefined;
  eachSubschema(schema, (node, keys) => {
    if (found) return;
    const at = (keyword: string, ...more: string[]) => [...keys, keyword, ...more].join('.');
    if (Array.isArray(node.enum) && node.enum.length > limits.maxEnumValues) {
      found = {
        path: at('enum'),
        message:
          `enum has ${node.enum.length} values, over the limit of ${limits.maxEnumValues} (limits.maxEnumValues): ` +
          'shorten the list, or raise the limit with compileTrackingPlan(plan, { limits }).',
      };
    }
    if (!found && keys.length > 0 && node.$id !== undefined) {
      found = {
        path: at('$id'),
        message:
          '$id inside a subschema changes what the $refs under it resolve against, which tracking plans do ' +
          'not follow: remove it (a $ref points inside the rule with "#/definitions/…").',
      };
    }
    const ref = node.$ref;
    if (!found && ref !== undefined) {
      if (typeof ref !== 'string' || !ref.startsWith('#')) {
        found = {
          path: at('$ref'),
          message: `$ref ${JSON.stringify(ref)} is not local: a rule's $ref must point inside its own jsonSchema ("#/definitions/…"); inline the schema it names.`,
        };
      } else if (!isObject(resolveLocal(schema, ref)) && typeof resolveLocal(schema, ref) !== 'boolean') {
        found = {
          path: at('$ref'),
          message: `$ref ${JSON.stringify(ref)} points at no schema inside this rule's jsonSchema: fix the pointer (e.g. "#/definitions/product").`,
        };
      }
    }
  });
  return found;
}
