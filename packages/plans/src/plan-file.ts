// Reading a tracking plan file: Segment's rules as its Public API and its Terraform provider export them.
import type { TrackingPlanRule, TrackingPlanRuleType } from '@hookgate/core';

/** Every rule type, in the order the docs list them. */
const RULE_TYPES: readonly TrackingPlanRuleType[] = ['TRACK', 'IDENTIFY', 'GROUP', 'PAGE', 'SCREEN', 'COMMON'];

/**
 * A tracking plan file as read: `{ rules: [...] }` (the Public API's list, also inside its `data`
 * envelope), a bare array of rules, or Terraform's `segment_tracking_plan` rules with `json_schema`.
 *
 * @example
 * const plan: TrackingPlanFile = JSON.parse(await readFile('plan.json', 'utf8')) as TrackingPlanFile;
 */
export type TrackingPlanFile =
  | { readonly rules: readonly unknown[] }
  | { readonly data: { readonly rules: readonly unknown[] } }
  | readonly unknown[];

/**
 * A tracking plan that is not one Segment could have exported: names the rule (index and key) and the
 * path inside it that is wrong, and the fix.
 *
 * @example
 * try { readTrackingPlan({ rules: [{ type: 'TRAK', key: 'Signed Up', jsonSchema: {} }] }); }
 * catch (e) { if (e instanceof TrackingPlanError) console.error(e.path); } // 'rules[0].type'
 */
export class TrackingPlanError extends TypeError {
  override readonly name = 'TrackingPlanError';
  constructor(
    /** Where in the plan file, e.g. `rules[3].jsonSchema.properties.properties.type`. */
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'object' ? 'an object' : typeof value;
}

/**
 * How errors name a rule: its index, type, key and version.
 *
 * @example
 * ruleLabel(3, { type: 'TRACK', key: 'Order Completed', version: 2 }); // 'rules[3] (TRACK "Order Completed" v2)'
 */
export function ruleLabel(index: number, rule: Partial<TrackingPlanRule> | undefined): string {
  const name = rule?.key ? `${rule.type ?? 'rule'} ${JSON.stringify(rule.key)}` : (rule?.type ?? 'rule');
  return `rules[${index}] (${name}${rule?.version !== undefined ? ` v${rule.version}` : ''})`;
}

/**
 * The list of rules in a plan file (internal): `{ rules }`, `{ data: { rules } }`, a bare array, or
 * Terraform's `{ values: { rules } }`; anything else throws a `TrackingPlanError`.
 *
 * @example
 * rulesOf({ data: { rules: [] } }); // []
 */
export function rulesOf(file: unknown): readonly unknown[] {
  if (Array.isArray(file)) return file;
  if (isObject(file)) {
    if (Array.isArray(file.rules)) return file.rules;
    if (isObject(file.data) && Array.isArray(file.data.rules)) return file.data.rules;
    // Terraform's state or plan output of a `segment_tracking_plan` resource: `{ rules: [...] }` sits in `values`.
    if (isObject(file.values) && Array.isArray(file.values.rules)) return file.values.rules;
  }
  throw new TrackingPlanError(
    '',
    `A tracking plan must be { "rules": [ … ] } (Segment's Public API), a bare array of rules, or Terraform's rules; got ${describe(file)}` +
      (isObject(file) ? ` with keys ${Object.keys(file).slice(0, 8).join(', ') || '(none)'}` : '') +
      '.',
  );
}

function readRule(value: unknown, index: number): TrackingPlanRule {
  const at = `rules[${index}]`;
  if (!isObject(value)) {
    throw new TrackingPlanError(
      at,
      `${at} must be a rule object { type, key, version, jsonSchema }; got ${describe(value)}.`,
    );
  }
  const label = ruleLabel(index, value);
  const type = typeof value.type === 'string' ? value.type.toUpperCase() : value.type;
  if (!RULE_TYPES.includes(type as TrackingPlanRuleType)) {
    throw new TrackingPlanError(
      `${at}.type`,
      `${label}: type must be one of ${RULE_TYPES.join(', ')}; got ${describe(value.type)}.`,
    );
  }
  const key = value.key;
  if (key !== undefined && key !== null && (typeof key !== 'string' || key === '')) {
    throw new TrackingPlanError(
      `${at}.key`,
      `${label}: key must be the event name (a non-empty string) or null; got ${describe(key)}.`,
    );
  }
  if ((type === 'PAGE' || type === 'SCREEN') && typeof key === 'string') {
    throw new TrackingPlanError(
      `${at}.key`,
      `${label}: a ${type} rule applies to every ${type.toLowerCase()} call: Segment checks them as the event ` +
        `"${type === 'PAGE' ? 'Page' : 'Screen'} Viewed", never by name (the Webhooks page message carries none). ` +
        'Set key to null, and check a specific name inside its jsonSchema (e.g. with if/then on properties.name).',
    );
  }
  if (type === 'TRACK' && (typeof key !== 'string' || key === '')) {
    throw new TrackingPlanError(
      `${at}.key`,
      `${label}: a TRACK rule needs its event name in key, e.g. "Order Completed".`,
    );
  }
  const version = value.version ?? 1;
  if (!Number.isInteger(version) || (version as number) < 1) {
    throw new TrackingPlanError(
      `${at}.version`,
      `${label}: version must be a whole number from 1; got ${describe(value.version)}.`,
    );
  }
  let schema = value.jsonSchema ?? value.json_schema;
  const schemaName = value.jsonSchema !== undefined ? 'jsonSchema' : 'json_schema';
  // Terraform writes json_schema = jsonencode({ … }): the schema's JSON text.
  if (typeof schema === 'string') {
    try {
      schema = JSON.parse(schema) as unknown;
    } catch (error) {
      throw new TrackingPlanError(
        `${at}.${schemaName}`,
        `${label}: ${schemaName} is text but not JSON (${error instanceof Error ? error.message : String(error)}).`,
      );
    }
  }
  if (!isObject(schema)) {
    throw new TrackingPlanError(
      `${at}.jsonSchema`,
      `${label}: jsonSchema must be a JSON Schema object over the whole event ({ "properties": { "properties": { … } } }); got ${schema === undefined ? 'none' : describe(schema)}.`,
    );
  }
  const rule: TrackingPlanRule = { type: type as TrackingPlanRuleType, version: version as number, jsonSchema: schema };
  if (typeof key === 'string') rule.key = key;
  return rule;
}

/**
 * Reads a tracking plan file into its rules, checking their structure: a rule type Segment does not
 * have, a TRACK rule without its event name, a bad version, a missing or non-object `jsonSchema`, or
 * the same version of one rule twice throws a `TrackingPlanError` naming the rule and the path.
 * (Each `jsonSchema` itself is checked when the plan is compiled.)
 *
 * @example
 * const rules = readTrackingPlan(JSON.parse(await readFile('plan.json', 'utf8')));
 * rules.filter((r) => r.type === 'TRACK').map((r) => r.key); // ['Order Completed', 'Signed Up']
 */
export function readTrackingPlan(file: unknown): TrackingPlanRule[] {
  const rules = rulesOf(file).map(readRule);
  const seen = new Map<string, number>();
  rules.forEach((rule, index) => {
    const id = `${rule.type}\u0000${rule.key ?? ''}\u0000${rule.version}`;
    const first = seen.get(id);
    if (first !== undefined) {
      throw new TrackingPlanError(
        `rules[${index}]`,
        `${ruleLabel(index, rule)}: the same rule and version as rules[${first}]; give each version of a rule once.`,
      );
    }
    seen.set(id, index);
  });
  return rules;
}
