// What a receiver needs of a tracking plan: the interface of a compiled plan (types), and how to tell
// one from a raw plan. Compiling one (Ajv, RE2, the validators) is @hookgate/plans' work, so a receiver
// without a plan bundles and installs none of it.

/**
 * The kinds of rule a Segment tracking plan holds. `COMMON` applies to every event.
 *
 * @example
 * const kinds: readonly TrackingPlanRuleType[] = ['TRACK', 'IDENTIFY', 'GROUP', 'PAGE', 'SCREEN', 'COMMON'];
 */
export type TrackingPlanRuleType = 'TRACK' | 'IDENTIFY' | 'GROUP' | 'PAGE' | 'SCREEN' | 'COMMON';

/**
 * One rule of a tracking plan, as Segment's Public API returns it (`GET /tracking-plans/{id}/rules`).
 * `jsonSchema` is a JSON Schema (draft-07) over the whole event: `properties`, `traits` and `context`
 * sit under its `properties`.
 *
 * @example
 * const rule: TrackingPlanRule = {
 *   type: 'TRACK',
 *   key: 'Order Completed',
 *   version: 1,
 *   jsonSchema: {
 *     $schema: 'http://json-schema.org/draft-07/schema#',
 *     type: 'object',
 *     properties: { properties: { type: 'object', properties: { total: { type: 'number' } }, required: ['total'] } },
 *   },
 * };
 */
export interface TrackingPlanRule {
  type: TrackingPlanRuleType;
  /** The event name (TRACK), the page or screen name (PAGE, SCREEN, optional); `null` or absent for the others. */
  key?: string | null;
  /** The rule's version (several versions of one event may coexist). Default 1. */
  version?: number;
  /** The JSON Schema over the whole event. Terraform spells it `json_schema` (an object or its JSON text). */
  jsonSchema: Record<string, unknown>;
}

/**
 * One way a message breaks its tracking plan: where (`properties.total`, `traits.email`, `(root)` for the
 * event itself, Segment's spelling) and what, in words.
 *
 * @example
 * const violation: PlanViolation = { path: 'properties.total', message: 'must be number (got string)', keyword: 'type' };
 */
export interface PlanViolation {
  path: string;
  message: string;
  /** The JSON Schema keyword that failed (`type`, `required`, `enum`, …). */
  keyword: string;
  /** The rule broken, e.g. `TRACK "Order Completed" v2` or `COMMON v1`. */
  rule?: string;
}

/**
 * A validator precompiled by Ajv (`hookgate types` writes them): returns whether the value is valid and
 * leaves Ajv's errors on its `errors` property.
 *
 * @example
 * const validate: PrecompiledValidator = Object.assign((value: unknown) => typeof value === 'object', { errors: null });
 */
export interface PrecompiledValidator {
  (value: unknown): boolean;
  errors?:
    | readonly {
        instancePath: string;
        keyword: string;
        params: Record<string, unknown>;
        message?: string;
        schemaPath?: string;
      }[]
    | null;
}

/**
 * A number of a message kept as its exact text: where (keys and indexes) and the text.
 *
 * @example
 * const n: ExactNumber = { at: ['properties', 'total'], text: '12345678901234567890123' };
 */
export interface ExactNumber {
  /** Where it is, as keys and array indexes from the message. */
  readonly at: readonly (string | number)[];
  /** The number exactly as the body wrote it, e.g. `12345678901234567890123`. */
  readonly text: string;
  /** `at.length`, when the caller knows it without making `at` (a changed number deep in a message). */
  readonly depth?: number;
}

/**
 * Which rule a message was checked against.
 *
 * @example
 * const rule: PlanRuleRef = { type: 'TRACK', key: 'Order Completed', version: 2 };
 */
export interface PlanRuleRef {
  type: TrackingPlanRule['type'];
  key: string | null;
  version: number;
}

/**
 * The outcome of checking one message: whether the plan has a rule for it, which rule, and every
 * violation of that rule and of the plan's COMMON rule (empty when none).
 *
 * @example
 * const result: PlanCheckResult = plan.check(msg);
 * if (!result.planned) console.warn(`unplanned event ${msg.event}`);
 * for (const v of result.violations) console.warn(`${v.path}: ${v.message}`);
 */
export interface PlanCheckResult {
  planned: boolean;
  rule?: PlanRuleRef;
  violations: readonly PlanViolation[];
}

/**
 * A tracking plan ready to check messages, from `compileTrackingPlan` (`@hookgate/plans`): what a receiver's
 * and a worker's `trackingPlan` take. `S` is the plan's event types when it came from a `hookgate types` module.
 *
 * @example
 * import { compileTrackingPlan } from '@hookgate/plans';
 * const plan = compileTrackingPlan(JSON.parse(await readFile('plan.json', 'utf8')));
 * plan.check({ type: 'track', event: 'Order Completed', properties: { total: '12' } }).violations;
 * // [{ path: 'properties.total', message: 'must be number (got string)', keyword: 'type', rule: 'TRACK "Order Completed" v1' }]
 */
export interface CompiledTrackingPlan<S = undefined> {
  /** Every rule of the plan, as read. */
  readonly rules: readonly TrackingPlanRule[];
  /** The event names of its TRACK rules. */
  readonly eventNames: readonly string[];
  /**
   * Checks a message (a webhook message or a whole Segment event) against its rule and the COMMON rule.
   * `exactNumbers` lists the numbers the message holds as their exact text (`bigNumbers: 'string'`):
   * they are checked as the numbers they are, limits compared exactly.
   */
  check(message: unknown, exactNumbers?: readonly ExactNumber[]): PlanCheckResult;
  /** The property (track) or trait (identify, group) names the message's rule lists; `undefined` when it has no rule. */
  plannedFields(message: unknown): { field: 'properties' | 'traits'; names: ReadonlySet<string> } | undefined;
  /** The event name the plan has closest to `name` (a likely typo), or `undefined`. */
  suggest(name: string): string | undefined;
  /** The plan's event types, from the module `hookgate types` writes (types only; never present at run time). */
  readonly '~shapes'?: S;
}

/** The mark `compileTrackingPlan` puts on a compiled plan (a global symbol: the same in every copy of the packages). */
export const COMPILED_PLAN: unique symbol = Symbol.for('hookgate.compiledTrackingPlan') as never;

/**
 * Whether a value is a plan `compileTrackingPlan` returned (internal).
 *
 * @example
 * if (!isCompiledTrackingPlan(options.trackingPlan)) throw new TypeError('compile it first');
 */
export function isCompiledTrackingPlan(value: unknown): value is CompiledTrackingPlan<unknown> {
  return (
    typeof value === 'object' && value !== null && (value as { [COMPILED_PLAN]?: unknown })[COMPILED_PLAN] === true
  );
}
