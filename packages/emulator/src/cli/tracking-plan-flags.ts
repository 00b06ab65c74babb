import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseTrackingPlanText } from '@hookgate/plans/internal';
import type { SchemaControls } from '../protocols/schema-controls.js';
import { redactUrl } from '../redact.js';
import type { DeliveryRecord } from '../log/delivery-record.js';
import { UsageError } from './usage-error.js';

/** The flags of `hookgate serve` for a tracking plan and Segment's schema controls. */
export const TRACKING_PLAN_FLAGS = {
  'tracking-plan': { type: 'string' },
  'unplanned-events': { type: 'string' },
  'unplanned-properties': { type: 'string' },
  'unplanned-traits': { type: 'string' },
  violations: { type: 'string' },
  'forward-blocked-to': { type: 'string' },
} as const;

/** Usage lines of those flags, for `hookgate serve --help`. */
export const TRACKING_PLAN_HELP = `Tracking plan (Segment Protocols), applied before delivery as Segment's Schema Configuration:
  --tracking-plan FILE      the plan's JSON (Public API rules, a bare array, or Terraform's rules)
  --unplanned-events V      forward (default), or block track events the plan does not name
  --unplanned-properties V  forward (default), or omit properties a track event's rule does not list
  --unplanned-traits V      forward (default), or omit traits the identify / group rule does not list
  --violations V            forward (default), block, or omit the offending properties and traits
  --forward-blocked-to URL  deliver blocked events to URL instead of dropping them, as they were sent
                            (Segment's "forward blocked events to a source": a second source whose
                            Webhooks destination is URL, signed with --secret, with the same --header)
  Omitted fields and violations are listed in the delivered message's context.protocols (and in
  --json attempt lines); a blocked event is a filtered line naming the rule and the path (and where
  it was forwarded).
`;

type Values = { [K in keyof typeof TRACKING_PLAN_FLAGS]?: string };

const CONTROLS = {
  'unplanned-events': ['unplannedEvents', ['forward', 'block']],
  'unplanned-properties': ['unplannedProperties', ['forward', 'omit']],
  'unplanned-traits': ['unplannedTraits', ['forward', 'omit']],
  violations: ['violations', ['forward', 'block', 'omit']],
} as const;

/** The name of the source `--forward-blocked-to` adds (shown in a blocked record's reason). */
export const BLOCKED_SOURCE_NAME = 'blocked events';

/**
 * Where `--forward-blocked-to` sends blocked events: the write key of the source `serve` adds for them
 * (random: no client sends to it), and its endpoint URL.
 */
export interface BlockedEventsTarget {
  writeKey: string;
  url: string;
}

/**
 * The source settings `--tracking-plan` and the control flags give: `{ trackingPlan, schemaControls }`,
 * or nothing without `--tracking-plan`; with `--forward-blocked-to URL`, also `blockedTo`, the source to
 * add for blocked events (its write key is `schemaControls.forwardBlockedTo`). The plan itself is
 * checked when the emulator is made.
 *
 * @example
 * const { blockedTo, ...protocols } = trackingPlanFromFlags({ 'tracking-plan': 'plan.json', violations: 'block' });
 * createEmulator({ sources: [{ writeKey, webhooks, ...protocols }] });
 */
export function trackingPlanFromFlags(values: Values): {
  trackingPlan?: unknown;
  schemaControls?: SchemaControls;
  blockedTo?: BlockedEventsTarget;
} {
  const controls: Record<string, string> = {};
  for (const [flag, [name, allowed]] of Object.entries(CONTROLS)) {
    const value = values[flag as keyof Values];
    if (value === undefined) continue;
    if (!(allowed as readonly string[]).includes(value))
      throw new UsageError('serve', `--${flag} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)}).`);
    controls[name] = value;
  }
  const path = values['tracking-plan'];
  const forwardTo = values['forward-blocked-to'];
  if (path === undefined) {
    const given = Object.keys(controls);
    if (given.length > 0 || forwardTo !== undefined)
      throw new UsageError('serve', `the schema control flags apply to a tracking plan: add --tracking-plan FILE.`);
    return {};
  }
  let blockedTo: BlockedEventsTarget | undefined;
  if (forwardTo !== undefined) {
    if (!/^https?:\/\/./i.test(forwardTo)) {
      throw new UsageError(
        'serve',
        `--forward-blocked-to must be the full http(s) URL blocked events are delivered to, e.g. http://127.0.0.1:3000/blocked (got ${JSON.stringify(redactUrl(forwardTo))}).`,
      );
    }
    if (controls.unplannedEvents !== 'block' && controls.violations !== 'block') {
      throw new UsageError(
        'serve',
        '--forward-blocked-to forwards the events the plan blocks, and nothing is blocked: add --unplanned-events block or --violations block.',
      );
    }
    blockedTo = { writeKey: `hookgate-blocked-${randomBytes(12).toString('hex')}`, url: forwardTo };
    controls.forwardBlockedTo = blockedTo.writeKey;
  }
  let plan: unknown;
  try {
    // The same loader as a receiver's and `hookgate types`: its size limit, then JSON.
    plan = parseTrackingPlanText(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError('serve', `--tracking-plan ${path}: ${(error as Error).message}`);
  }
  return { trackingPlan: plan, schemaControls: controls, ...(blockedTo && { blockedTo }) };
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
