// A tracking plan compiled once: each rule's JSON Schema compiled, the version of each event picked.
import type {
  CompiledTrackingPlan,
  PlanRuleRef,
  PlanShapesOf,
  PlanViolation,
  PrecompiledValidator,
  TrackingPlanRule,
} from '@hookgate/core';
import { COMPILED_PLAN, isCompiledTrackingPlan, nearestName } from '@hookgate/core/internal';
import { precompiledCheck, type SchemaCheck } from './json-schema-validator.js';
import { loadTrackingPlan } from './load-plan.js';
import { ruleLabel, rulesOf, TrackingPlanError } from './plan-file.js';
import { resolveLimits, type TrackingPlanLimits } from './plan-limits.js';
import { CheckCost, MAX_CHECK_DEPTH } from './check-cost.js';
import { exactViolations, withStandIns } from './exact-numbers.js';
import { findRule, isObject, type RuleLookup } from './find-rule.js';
import {
  COMPILES_PATTERN_PROPERTIES,
  MAX_COMPILED_KEYWORDS,
  schemaCompiler,
  uniqueItemsCost,
} from './schema-compiler.js';

/**
 * Which version of an event with several is checked when the message names none (in
 * `context.protocols.event_version`, which always wins when the plan has that version): `oldest`
 * (default: Segment's Protocols checks the first version unless the call names another), `highest`, or a
 * version per event name (`{ 'Order Completed': 2 }`; other events take the oldest).
 *
 * @example
 * compileTrackingPlan(plan, { versions: { 'Order Completed': 1 } });
 */
export type PlanVersionChoice = 'highest' | 'oldest' | Readonly<Record<string, number>>;

/**
 * Options of `compileTrackingPlan`.
 *
 * @example
 * const options: TrackingPlanOptions = { versions: 'highest' };
 */
export interface TrackingPlanOptions {
  versions?: PlanVersionChoice;
  /** Limits the plan is read under (see `TrackingPlanLimits` for the defaults). */
  limits?: TrackingPlanLimits;
}

interface CompiledRule {
  ref: PlanRuleRef;
  label: string;
  check: SchemaCheck;
  schema: Record<string, unknown>;
  /** What checking a message against the rule may cost, bounded before it runs (check-cost.ts). */
  cost: () => CheckCost;
}

/** A rule ready to check messages; its schema is compiled when its first message comes (see `compileTrackingPlan`). */
function compileRule(
  rule: TrackingPlanRule,
  index: number,
  precompiled: PrecompiledValidator | undefined,
  compile: (schema: Record<string, unknown>) => SchemaCheck,
  maxViolations: number,
): CompiledRule {
  let compiled: SchemaCheck | undefined = precompiled && precompiledCheck(precompiled, maxViolations);
  let cost: CheckCost | undefined;
  const check: SchemaCheck = (message) => {
    if (compiled === undefined) {
      try {
        compiled = compile(rule.jsonSchema);
      } catch (error) {
        // The plan loader checked what a compiler refuses; this is a compiler's own limit.
        throw new TrackingPlanError(
          `rules[${index}].jsonSchema`,
          `${ruleLabel(index, rule)}: jsonSchema does not compile: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    return compiled(message);
  };
  const ref: PlanRuleRef = { type: rule.type, key: rule.key ?? null, version: rule.version ?? 1 };
  const name = ref.key === null ? ref.type : `${ref.type} ${JSON.stringify(ref.key)}`;
  return {
    ref,
    label: `${name} v${ref.version}`,
    check,
    schema: rule.jsonSchema,
    // Validators `hookgate types` precompiled run Ajv's code, whose uniqueItems is linear in every build.
    cost: () => (cost ??= new CheckCost(rule.jsonSchema, precompiled ? 'linear' : uniqueItemsCost(rule.jsonSchema))),
  };
}

function pickVersion(
  versions: Map<number, CompiledRule>,
  key: string,
  choice: PlanVersionChoice,
  label: string,
): CompiledRule {
  const numbers = [...versions.keys()].sort((a, b) => a - b);
  if (typeof choice === 'object' && choice[key] !== undefined) {
    const picked = versions.get(choice[key]);
    if (picked === undefined) {
      throw new TrackingPlanError(
        `versions.${key}`,
        `versions: ${label} has no version ${choice[key]}; it has ${numbers.join(', ')}.`,
      );
    }
    return picked;
  }
  return versions.get(choice === 'highest' ? numbers[numbers.length - 1]! : numbers[0]!)!;
}

/** The validators `hookgate types` precompiled, one per rule, when the input is its module's `trackingPlan`. */
function precompiledValidators(input: unknown, count: number): readonly PrecompiledValidator[] | undefined {
  const validators = isObject(input) ? input.validators : undefined;
  if (!Array.isArray(validators)) return undefined;
  if (validators.length !== count || !validators.every((v) => typeof v === 'function')) {
    throw new TrackingPlanError(
      'validators',
      `validators must hold one function per rule (${count}); regenerate the module with hookgate types.`,
    );
  }
  return validators as PrecompiledValidator[];
}

/** Shared by every result without violations (a fresh array per result otherwise). */
const NONE: readonly PlanViolation[] = Object.freeze([]);

/** The one violation of a message whose check could cost more than the budget: it is not checked. */
function notChecked(spent: number, budget: number, rule: string): readonly PlanViolation[] {
  const why =
    spent === Infinity
      ? `the rule goes deeper than ${MAX_CHECK_DEPTH} levels into this message`
      : `checking it could cost more than ${budget} units (limits.maxCheckCost)`;
  return [{ path: '(root)', message: `not checked: ${why}`, keyword: 'maxCheckCost', rule }];
}

function labelled(violations: readonly PlanViolation[], rule: string): readonly PlanViolation[] {
  return violations.length === 0 ? NONE : violations.map((v) => ({ ...v, rule }));
}

/** The names a rule's schema lists under `properties.<field>.properties`. */
function listedNames(schema: Record<string, unknown>, field: 'properties' | 'traits'): ReadonlySet<string> {
  const top = schema.properties;
  const sub = isObject(top) ? top[field] : undefined;
  const listed = isObject(sub) ? sub.properties : undefined;
  return new Set(isObject(listed) ? Object.keys(listed) : []);
}

/**
 * Compiles a tracking plan once: reads and checks its rules (see `loadTrackingPlan`: structure, limits,
 * draft-07, patterns RE2 can run, local `$ref`s), compiles each rule's JSON Schema when its first message
 * comes (a plan of thousands of rules starts at once), and picks the version of each event checked when a
 * message names none. A malformed plan throws a `TrackingPlanError` naming the rule and the path. Takes the plan
 * file's JSON as read, the `trackingPlan` export `hookgate types` writes, or a compiled plan (returned as is).
 *
 * Messages are matched as Segment's Protocols does: a track call by its event name; identify and group
 * by the IDENTIFY and GROUP rules; page and screen calls as the events "Page Viewed" and "Screen Viewed"
 * (or a PAGE / SCREEN rule); the COMMON rule applies to every call.
 *
 * @example
 * import { compileTrackingPlan } from '@hookgate/plans';
 * const plan = compileTrackingPlan(JSON.parse(await readFile('plan.json', 'utf8')));
 * const { planned, violations } = plan.check(msg);
 */
export function compileTrackingPlan<P>(
  input: P,
  options: TrackingPlanOptions = {},
): CompiledTrackingPlan<PlanShapesOf<P>> {
  if (isCompiledTrackingPlan(input)) return input as CompiledTrackingPlan<PlanShapesOf<P>>;
  const list = rulesOf(input);
  const validators = precompiledValidators(input, list.length);
  const limits = resolveLimits(options.limits);
  const rules = loadTrackingPlan(input, {
    ...(options.limits && { limits: options.limits }),
    patternProperties: validators !== undefined || COMPILES_PATTERN_PROPERTIES,
    maxCompiledKeywords: validators === undefined ? MAX_COMPILED_KEYWORDS : Infinity,
  });
  const choice = options.versions ?? 'oldest';
  if (choice !== 'highest' && choice !== 'oldest' && !isObject(choice)) {
    throw new TrackingPlanError(
      'versions',
      `versions must be 'highest', 'oldest' or an object of versions per event name; got ${JSON.stringify(choice)}.`,
    );
  }
  // type + key → version → compiled rule.
  const byKey = new Map<string, Map<number, CompiledRule>>();
  const compile = schemaCompiler(limits.maxViolations);
  rules.forEach((rule, index) => {
    const compiled = compileRule(rule, index, validators?.[index], compile, limits.maxViolations);
    const id = `${rule.type}\u0000${rule.key ?? ''}`;
    let versions = byKey.get(id);
    if (!versions) byKey.set(id, (versions = new Map()));
    versions.set(compiled.ref.version, compiled);
  });
  const eventNames = [...new Set(rules.filter((r) => r.type === 'TRACK').map((r) => r.key!))];
  if (isObject(choice)) {
    for (const name of Object.keys(choice)) {
      if (!eventNames.includes(name)) {
        const near = nearestName(name, eventNames);
        throw new TrackingPlanError(
          `versions.${name}`,
          `versions: the plan has no event ${JSON.stringify(name)}${near ? `; did you mean ${JSON.stringify(near)}?` : '.'}`,
        );
      }
    }
  }
  const lookup: RuleLookup<CompiledRule> = new Map();
  for (const [id, versions] of byKey) {
    const [type, key] = id.split('\u0000') as [string, string];
    let keys = lookup.get(type);
    if (!keys) lookup.set(type, (keys = new Map()));
    keys.set(key, { picked: pickVersion(versions, key, choice, `${type} ${JSON.stringify(key)}`), versions });
  }
  const common = lookup.get('COMMON')?.get('')?.picked;

  const plan: CompiledTrackingPlan<PlanShapesOf<P>> & { [COMPILED_PLAN]: true } = {
    [COMPILED_PLAN]: true,
    rules,
    eventNames,
    check(message, exactNumbers) {
      // A check never goes more than MAX_CHECK_DEPTH levels into a message (past that it is not run), so
      // deeper exact numbers cannot change its verdict: they are left out before any `at` is made.
      const within = exactNumbers?.filter((n) => (n.depth ?? n.at.length) <= MAX_CHECK_DEPTH + 1);
      const exact = within !== undefined && within.length > 0 ? within : undefined;
      const value = exact ? withStandIns(message, exact) : message;
      const run = (compiled: CompiledRule) => {
        const found = compiled.check(value);
        return exact ? exactViolations(found, compiled.schema, exact) : found;
      };
      const rule = findRule(lookup, message);
      const withCommon = common && isObject(message) && message.type !== 'delete' ? common : undefined;
      // The check's cost is bounded before it runs: a synchronous check cannot be stopped once started.
      let spent = 0;
      for (const compiled of [rule, withCommon]) {
        if (compiled === undefined) continue;
        spent = compiled.cost().add(value, limits.maxCheckCost, spent);
        if (spent > limits.maxCheckCost) {
          const violations = notChecked(spent, limits.maxCheckCost, compiled.label);
          return rule ? { planned: true, rule: rule.ref, violations } : { planned: false, violations };
        }
      }
      let violations = rule ? labelled(run(rule), rule.label) : NONE;
      if (withCommon) {
        const more = run(withCommon);
        if (more.length > 0) violations = [...violations, ...labelled(more, withCommon.label)];
      }
      return rule ? { planned: true, rule: rule.ref, violations } : { planned: false, violations };
    },
    plannedFields(message) {
      const rule = findRule(lookup, message);
      if (!rule || !isObject(message)) return undefined;
      const field = message.type === 'identify' || message.type === 'group' ? 'traits' : 'properties';
      return { field, names: listedNames(rule.schema, field) };
    },
    suggest: (name) => nearestName(name, eventNames),
  };
  return plan;
}
