// The limits a tracking plan is read under: a plan is input, and one of absurd size must be refused at
// start with the limit named, never met as a crash, a hang, or a first request that pays seconds of compile.

/**
 * Limits on a tracking plan, each refusing a plan at start (a `TrackingPlanError` naming the rule and the
 * limit). The defaults hold Segment's largest plans with room to spare; raise one by compiling the plan
 * yourself: `createReceiver({ trackingPlan: compileTrackingPlan(plan, { limits: { maxRules: 20_000 } }) })`.
 *
 * @example
 * const limits: TrackingPlanLimits = { maxRules: 20_000, maxEnumValues: 5_000 };
 */
export interface TrackingPlanLimits {
  /** Rules in the plan (default 5,000). */
  maxRules?: number;
  /** The plan's JSON, in bytes (default 16 MiB). */
  maxPlanBytes?: number;
  /** One rule's `jsonSchema` as JSON, in bytes (default 512 KiB): what its first message may pay to compile. */
  maxRuleBytes?: number;
  /** How deep a rule's `jsonSchema` nests, counting every object and array (default 64). */
  maxSchemaDepth?: number;
  /** Values of one `enum` (default 2,000). */
  maxEnumValues?: number;
  /**
   * What the plan's distinct `pattern`s and `patternProperties` keys may cost to compile (default 1,000,000).
   * RE2 compiles a counted repetition as copies (`x{1,1000}` is a thousand `x`), so a pattern weighs its
   * length times its largest repetition count (nested counts multiply): `^\p{L}{1,1000}$` weighs 15,000,
   * `^[A-Z]{3}-\d+$` 42. A plan at the default compiles its patterns in about half a second.
   */
  maxPatternWeight?: number;
  /**
   * Keywords of one rule (annotations such as `description` aside), each `$ref` counted as the schema it
   * points at every time it is used (default 20,000). It bounds what a rule costs to prepare at its first
   * message, and refuses at start `$ref`s that fan out (two per level, 40 levels: 2^40 schemas from 2 KB).
   */
  maxRuleKeywords?: number;
  /**
   * What checking one message may cost, in work units (default 150,000; a unit is about a microsecond
   * of the slowest build, a subschema meeting a value 15). The cost is bounded before the check runs, from
   * the rule and the message (each subschema a value meets, `enum` and `const` sizes, pattern weight ×
   * string length, `uniqueItems`, nesting); a message past it is not checked and gets one violation,
   * keyword `maxCheckCost`. A 32 KB message (Segment's limit for a call) of an ordinary plan costs far less.
   */
  maxCheckCost?: number;
  /** Violations listed per message (default 100); past it, a last entry (keyword `maxViolations`) says how many more. */
  maxViolations?: number;
}

/**
 * The default limits (see `TrackingPlanLimits`).
 *
 * @example
 * DEFAULT_PLAN_LIMITS.maxRules; // 5000
 */
export const DEFAULT_PLAN_LIMITS: Readonly<Required<TrackingPlanLimits>> = Object.freeze({
  maxRules: 5_000,
  maxPlanBytes: 16 * 1024 * 1024,
  maxRuleBytes: 512 * 1024,
  maxSchemaDepth: 64,
  maxEnumValues: 2_000,
  maxPatternWeight: 1_000_000,
  maxRuleKeywords: 20_000,
  maxCheckCost: 150_000,
  maxViolations: 100,
});

/**
 * The limits given over the defaults, each checked to be a whole number from 1 (internal).
 *
 * @example
 * resolveLimits({ maxRules: 20_000 }).maxEnumValues; // 2000
 */
export function resolveLimits(given: TrackingPlanLimits | undefined): Required<TrackingPlanLimits> {
  const limits = { ...DEFAULT_PLAN_LIMITS };
  for (const [name, value] of Object.entries(given ?? {})) {
    if (!(name in DEFAULT_PLAN_LIMITS)) {
      throw new TypeError(
        `limits.${name} is not a tracking-plan limit; the limits are ${Object.keys(DEFAULT_PLAN_LIMITS).join(', ')}.`,
      );
    }
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || (value as number) < 1) {
      throw new TypeError(`limits.${name} must be a whole number from 1; got ${JSON.stringify(value)}.`);
    }
    limits[name as keyof TrackingPlanLimits] = value as number;
  }
  return limits;
}

const encoder = new TextEncoder();

/**
 * The UTF-8 length of a string, in bytes (internal).
 *
 * @example
 * utf8Length('é'); // 2
 */
export function utf8Length(text: string): number {
  return encoder.encode(text).byteLength;
}
