// Segment's Schema Configuration applied to one message before delivery: block unplanned track events,
// omit unplanned properties and traits, then block, omit or only report JSON Schema violations. What is
// omitted and what was violated go to `context.protocols`, as Segment records them, e.g.
//   "protocols": { "omitted": ["newProperty"], "omitted_on_violation": ["integer"],
//                  "violations": [{ "type": "Invalid Type", "field": "properties.integer", "description": "…" }] }
// The violations written are bounded (count and bytes, `violation_count` telling how many there were), so
// that a hostile call cannot make a delivery many times the size of the call.
import type { PlanViolation, WebhookMessage } from '@hookgate/core';
import type { Call } from '@hookgate/core/calls';
import { guardedPlanCheck, PLAN_CHECK_FAILED } from '@hookgate/core/internal';
import { callToSpecEvent } from '../segment-event.js';
import type { ResolvedProtocols } from './schema-controls.js';

/**
 * What the schema controls make of a message: the message to deliver (a copy when anything changed),
 * or why it is blocked (the rule and the path named).
 *
 * @example
 * const outcome = applySchemaControls(message, protocols);
 * if ('blocked' in outcome) console.log(outcome.blocked);
 */
export type SchemaControlsOutcome =
  | { message: WebhookMessage; violations: readonly PlanViolation[]; omitted: string[]; omittedOnViolation: string[] }
  | { blocked: string };

/** The message's field the plan lists names of: properties for track, page and screen; traits for identify and group. */
function controlledField(message: WebhookMessage): 'properties' | 'traits' | undefined {
  if (message.type === 'track' || message.type === 'page' || message.type === 'screen') return 'properties';
  if (message.type === 'identify' || message.type === 'group') return 'traits';
  return undefined;
}

/** `properties.total.amount` → `total` when `field` is `properties`. */
function topName(path: string, field: string): string | undefined {
  const parts = path.split('.');
  return parts[0] === field && parts.length > 1 ? parts[1] : undefined;
}

/** Segment's names of violation types: "Invalid Type" is Segment's own; the others name the keyword. */
function violationType(keyword: string): string {
  if (keyword === 'type') return 'Invalid Type';
  if (keyword === PLAN_CHECK_FAILED) return 'Plan Check Failed';
  return `Invalid ${keyword.charAt(0).toUpperCase()}${keyword.slice(1)}`;
}

/** At most this many violations are written into `context.protocols.violations`. */
const MAX_WRITTEN_VIOLATIONS = 50;
/** At most this many bytes (UTF-16 code units) of them: with a 32 KB call, a delivery stays under 64 KB. */
const MAX_WRITTEN_VIOLATION_CHARS = 16 * 1024;
/** A violation's `field` and `description` are cut to this many characters. */
const MAX_TEXT = 256;

const cut = (text: string) => (text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT - 1)}…`);

/**
 * The violations as `context.protocols` lists them, the first ones only, each text cut, up to
 * `MAX_WRITTEN_VIOLATIONS` and `MAX_WRITTEN_VIOLATION_CHARS`; with `violation_count` (how many there
 * were) when some were left out.
 */
function writtenViolations(violations: readonly PlanViolation[]): {
  violations: { type: string; field: string; description: string }[];
  violation_count?: number;
} {
  const written: { type: string; field: string; description: string }[] = [];
  let chars = 0;
  for (const v of violations) {
    if (written.length === MAX_WRITTEN_VIOLATIONS) break;
    const entry = { type: violationType(v.keyword), field: cut(v.path), description: cut(v.message) };
    chars += JSON.stringify(entry).length + 1;
    if (chars > MAX_WRITTEN_VIOLATION_CHARS) break;
    written.push(entry);
  }
  return written.length === violations.length
    ? { violations: written }
    : { violations: written, violation_count: violations.length };
}

function describeViolation(v: PlanViolation): string {
  return `${v.rule ?? 'the plan'} at ${v.path}: ${v.message}`;
}

/**
 * Applies a source's schema controls to a message before delivery (see `SchemaControls`). Returns the
 * message to deliver — the same object when nothing changes, else a copy with the omitted fields removed
 * and `context.protocols` telling what was omitted and violated — or the reason it is blocked.
 *
 * @example
 * applySchemaControls(fixture('track', { event: 'Nope' }), { plan, controls: { ...forward, unplannedEvents: 'block' } });
 * // { blocked: 'blocked by the tracking plan: track event "Nope" is not in the plan (schemaControls.unplannedEvents: block)' }
 */
export function applySchemaControls(message: WebhookMessage, protocols: ResolvedProtocols): SchemaControlsOutcome {
  const { plan, controls } = protocols;
  const field = controlledField(message);
  // A check that throws is a violation naming it (the schema controls then apply as to any violation).
  const first = guardedPlanCheck(plan, message);
  if (message.type === 'track' && !first.planned && controls.unplannedEvents === 'block') {
    return {
      blocked: `blocked by the tracking plan: track event ${JSON.stringify(message.event)} is not in the plan (schemaControls.unplannedEvents: block)`,
    };
  }
  const record = message as unknown as Record<string, unknown>;
  let values = field ? (record[field] as Record<string, unknown> | undefined) : undefined;
  const omitted: string[] = [];
  const omit = field === 'properties' ? controls.unplannedProperties : controls.unplannedTraits;
  const planned = plan.plannedFields(message);
  if (values && omit === 'omit' && planned) {
    const kept: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(values)) {
      if (planned.names.has(name)) kept[name] = value;
      else omitted.push(name);
    }
    values = kept;
  }
  // Checked after unplanned fields were omitted: what is delivered is what is checked.
  const checked = omitted.length > 0 ? guardedPlanCheck(plan, { ...record, [field!]: values }) : first;
  const violations = checked.violations;
  if (violations.length > 0 && controls.violations === 'block') {
    const v = violations[0] as PlanViolation;
    const more = violations.length > 1 ? ` (and ${violations.length - 1} more)` : '';
    return {
      blocked: `blocked by the tracking plan: ${describeViolation(v)}${more} (schemaControls.violations: block)`,
    };
  }
  const omittedOnViolation: string[] = [];
  if (values && field && violations.length > 0 && controls.violations === 'omit') {
    const offending = new Set(violations.flatMap((v) => topName(v.path, field) ?? []));
    const kept: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(values)) {
      if (offending.has(name)) omittedOnViolation.push(name);
      else kept[name] = value;
    }
    values = kept;
  }
  if (omitted.length === 0 && omittedOnViolation.length === 0 && violations.length === 0) {
    return { message, violations, omitted, omittedOnViolation };
  }
  const context = { ...((record.context as Record<string, unknown> | undefined) ?? {}) };
  context.protocols = {
    ...(context.protocols ?? {}),
    ...(omitted.length > 0 && { omitted }),
    ...(omittedOnViolation.length > 0 && { omitted_on_violation: omittedOnViolation }),
    ...(violations.length > 0 && writtenViolations(violations)),
  };
  const delivered: Record<string, unknown> = { ...record, ...(field && values && { [field]: values }), context };
  return { message: delivered as unknown as WebhookMessage, violations, omitted, omittedOnViolation };
}

/**
 * A build of a message with the schema controls applied (internal, for the pipeline): a blocked
 * message becomes a build failure whose reason names the rule and path.
 *
 * @example
 * const built = withSchemaControls(callToMessage(call, receivedMs, options), source.protocols);
 */
export function withSchemaControls<T extends { ok: true; message: WebhookMessage } | { ok: false; reason: string }>(
  built: T,
  protocols: ResolvedProtocols | undefined,
): T | { ok: false; reason: string } | { ok: true; message: WebhookMessage } {
  if (protocols === undefined || !built.ok) return built;
  const outcome = applySchemaControls(built.message, protocols);
  return 'blocked' in outcome ? { ok: false, reason: outcome.blocked } : { ok: true, message: outcome.message };
}

/**
 * Why the schema controls block a call, or `undefined` when they let it through (internal, for the
 * pipeline): decided once per call, on the whole Segment event, before it is routed to any destination.
 *
 * @example
 * const reason = blockedByPlan(call, receivedMs, source.resolved.protocols);
 */
export function blockedByPlan(call: Call, receivedMs: number, protocols: ResolvedProtocols): string | undefined {
  const { controls } = protocols;
  if (controls.unplannedEvents !== 'block' && controls.violations !== 'block') return undefined;
  const event = callToSpecEvent(call, receivedMs) as unknown as WebhookMessage;
  const outcome = applySchemaControls(event, protocols);
  return 'blocked' in outcome ? outcome.blocked : undefined;
}
