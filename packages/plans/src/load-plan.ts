// The one plan loader: receivers, workers, `hookgate serve` and `hookgate types` read and check a plan
// here, so they give the same verdict in the same words for the same plan. Cheap, non-recursive checks
// come first (size, rule count, nesting depth), so that no plan reaches a recursive step (the meta-schema
// check, a compiler) before it is known to fit.
import { schemaProblems } from './json-schema-validator.js';
import type { TrackingPlanRule } from '@hookgate/core';
import { readTrackingPlan, ruleLabel, rulesOf, TrackingPlanError } from './plan-file.js';
import { resolveLimits, utf8Length, type TrackingPlanLimits } from './plan-limits.js';
import { PatternWeights } from './pattern-weight.js';
import { rulePatternProblem, ruleSchemaProblem, type RuleSchemaProblem } from './rule-schema-checks.js';
import { expandedSize, nestingDepth } from './schema-walk.js';

/**
 * How a plan is loaded (internal): its limits, and whether `patternProperties` can run (where the
 * rules are compiled by Ajv or precompiled).
 */
export interface LoadPlanOptions {
  limits?: TrackingPlanLimits;
  patternProperties?: boolean;
  /** Keywords past which a rule with `patternProperties` is refused: Ajv compiles it at its first message. */
  maxCompiledKeywords?: number;
}

const RAISE = 'or raise the limit with compileTrackingPlan(plan, { limits }).';

/**
 * Reads a plan's JSON text (a file's): refused past `limits.maxPlanBytes` before it is parsed, then
 * parsed; a `TrackingPlanError` says which.
 *
 * @example
 * const file = parseTrackingPlanText(await readFile('plan.json', 'utf8'));
 */
export function parseTrackingPlanText(text: string, limits?: TrackingPlanLimits): unknown {
  const { maxPlanBytes } = resolveLimits(limits);
  const bytes = utf8Length(text);
  if (bytes > maxPlanBytes) {
    throw new TrackingPlanError(
      '',
      `The tracking plan is ${bytes} bytes, over the limit of ${maxPlanBytes} (limits.maxPlanBytes): split it, ${RAISE}`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new TrackingPlanError('', `The tracking plan is not JSON: ${(error as Error).message}`);
  }
}

/**
 * Reads and checks a whole plan: its structure (`readTrackingPlan`), its limits, and each rule's
 * `jsonSchema` (patterns RE2 can run and their weight, draft-07, local `$ref`s that resolve, `enum` sizes). Throws a
 * `TrackingPlanError` naming the rule (index, type, key, version), the path, and the fix.
 *
 * @example
 * const rules = loadTrackingPlan(JSON.parse(text));
 */
export function loadTrackingPlan(input: unknown, options: LoadPlanOptions = {}): TrackingPlanRule[] {
  const limits = resolveLimits(options.limits);
  const list = rulesOf(input);
  if (list.length > limits.maxRules) {
    throw new TrackingPlanError(
      'rules',
      `The tracking plan has ${list.length} rules, over the limit of ${limits.maxRules} (limits.maxRules): ` +
        `remove unused rules, ${RAISE}`,
    );
  }
  const rules = readTrackingPlan(list);
  const weights = new PatternWeights();
  let total = 0;
  rules.forEach((rule, index) => {
    const label = ruleLabel(index, rule);
    const at = `rules[${index}].jsonSchema`;
    if (nestingDepth(rule.jsonSchema, limits.maxSchemaDepth) > limits.maxSchemaDepth) {
      throw new TrackingPlanError(
        at,
        `${label}: jsonSchema nests deeper than ${limits.maxSchemaDepth} levels (limits.maxSchemaDepth): ` +
          `flatten it, ${RAISE}`,
      );
    }
    const json = JSON.stringify(rule.jsonSchema);
    const bytes = utf8Length(json);
    total += bytes;
    if (bytes > limits.maxRuleBytes) {
      throw new TrackingPlanError(
        at,
        `${label}: jsonSchema is ${bytes} bytes, over the limit of ${limits.maxRuleBytes} (limits.maxRuleBytes): ` +
          `split the rule, ${RAISE}`,
      );
    }
    if (total > limits.maxPlanBytes) {
      throw new TrackingPlanError(
        at,
        `${label}: the plan's rules pass ${limits.maxPlanBytes} bytes here (limits.maxPlanBytes): split the plan, ${RAISE}`,
      );
    }
    const refuse = (problem: RuleSchemaProblem) =>
      new TrackingPlanError(`${at}.${problem.path}`, `${label}: jsonSchema.${problem.path}: ${problem.message}`);
    const patterns = rulePatternProblem(rule.jsonSchema, limits, options.patternProperties ?? false, weights);
    if (patterns !== undefined) throw refuse(patterns);
    const meta = schemaProblems(rule.jsonSchema)[0];
    if (meta !== undefined) {
      const path = meta.path === '(root)' ? '' : `.${meta.path}`;
      throw new TrackingPlanError(
        `${at}${path}`,
        `${label}: jsonSchema${path} ${meta.message} (not a valid draft-07 JSON Schema).`,
      );
    }
    const problem = ruleSchemaProblem(rule.jsonSchema, limits);
    if (problem !== undefined) throw refuse(problem);
    const compiled = options.maxCompiledKeywords ?? Infinity;
    if (compiled < limits.maxRuleKeywords && json.includes('"patternProperties"')) {
      const size = expandedSize(rule.jsonSchema, compiled);
      if (size.path !== undefined) {
        throw new TrackingPlanError(
          at,
          `${label}: jsonSchema has patternProperties and more than ${compiled} keywords: such a rule is compiled ` +
            `by Ajv at its first message, which would hold it too long; list the properties or split the rule.`,
        );
      }
    }
    const expanded = expandedSize(rule.jsonSchema, limits.maxRuleKeywords);
    if (expanded.path !== undefined) {
      const where = expanded.path.map((key) => `.${key}`).join('');
      throw new TrackingPlanError(
        `${at}${where}`,
        `${label}: jsonSchema${where} holds more than ${limits.maxRuleKeywords} keywords once each $ref is ` +
          `counted as the schema it points at (limits.maxRuleKeywords): a rule that big takes its first message ` +
          `too long to compile; share fewer $refs or split the rule, ${RAISE}`,
      );
    }
  });
  return rules;
}
