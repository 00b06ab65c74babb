import { readFileSync } from 'node:fs';
import type { SchemaControls } from '../protocols/schema-controls.js';
import type { DeliveryRecord } from '../log/delivery-record.js';
import { UsageError } from './usage-error.js';

/** The flags of `hookgate serve` for a tracking plan and Segment's schema controls. */
export const TRACKING_PLAN_FLAGS = {
  'tracking-plan': { type: 'string' },
  'unplanned-events': { type: 'string' },
  'unplanned-properties': { type: 'string' },
  'unplanned-traits': { type: 'string' },
  violations: { type: 'string' },
} as const;

/** Usage lines of those flags, for `hookgate serve --help`. */
export const TRACKING_PLAN_HELP = `Tracking plan (Segment Protocols), applied before delivery as Segment's Schema Configuration:
  --tracking-plan FILE      the plan's JSON (Public API rules, a bare array, or Terraform's rules)
  --unplanned-events V      forward (default), or block track events the plan does not name
  --unplanned-properties V  forward (default), or omit properties a track event's rule does not list
  --unplanned-traits V      forward (default), or omit traits the identify / group rule does not list
  --violations V            forward (default), block, or omit the offending properties and traits
  Omitted fields and violations are listed in the delivered message's context.protocols (and in
  --json attempt lines); a blocked event is a filtered line naming the rule and the path.
`;

type Values = { [K in keyof typeof TRACKING_PLAN_FLAGS]?: string };

const CONTROLS = {
  'unplanned-events': ['unplannedEvents', ['forward', 'block']],
  'unplanned-properties': ['unplannedProperties', ['forward', 'omit']],
  'unplanned-traits': ['unplannedTraits', ['forward', 'omit']],
  violations: ['violations', ['forward', 'block', 'omit']],
} as const;

/**
 * The source settings `--tracking-plan` and the control flags give: `{ trackingPlan, schemaControls }`,
 * or nothing without `--tracking-plan`. The plan itself is checked when the emulator is made.
 *
 * @example
 * const protocols = trackingPlanFromFlags({ 'tracking-plan': 'plan.json', violations: 'block' });
 * createEmulator({ sources: [{ writeKey, webhooks, ...protocols }] });
 */
export function trackingPlanFromFlags(values: Values): { trackingPlan?: unknown; schemaControls?: SchemaControls } {
  const controls: Record<string, string> = {};
  for (const [flag, [name, allowed]] of Object.entries(CONTROLS)) {
    const value = values[flag as keyof Values];
    if (value === undefined) continue;
    if (!(allowed as readonly string[]).includes(value))
      throw new UsageError('serve', `--${flag} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)}).`);
    controls[name] = value;
  }
  const path = values['tracking-plan'];
  if (path === undefined) {
    const given = Object.keys(controls);
    if (given.length > 0)
      throw new UsageError('serve', `the schema control flags apply to a tracking plan: add --tracking-plan FILE.`);
    return {};
  }
  let plan: unknown;
  try {
    plan = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError('serve', `--tracking-plan ${path}: ${(error as Error).message}`);
  }
  return { trackingPlan: plan, schemaControls: controls };
}

/**
 * What the tracking plan did to a delivered message (its `context.protocols`: omitted fields and
 * violations), for `--json` lines; `undefined` when it did nothing.
 *
 * @example
 * const protocols = deliveredProtocols(record); // { omitted: ['utm'], violations: [...] }
 */
export function deliveredProtocols(record: Pick<DeliveryRecord, 'message'>): unknown {
  const context = (record.message as { context?: { protocols?: unknown } } | undefined)?.context;
  return context?.protocols;
}
