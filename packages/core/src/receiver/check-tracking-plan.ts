// The receiver's tracking-plan step: before a handler runs, its message is checked against the plan
// (`ctx.violations`, `ctx.planned`), `on.track` keyed by event name is dispatched, and `onViolation`
// runs instead of the handler when given. Nothing here answers the sender differently: a verified
// message is never refused for its properties (Segment would not retry a 4xx; the event would be lost).
import type { WebhookMessage } from '../messages/types.js';
import { nearestName, UnknownOptionError } from '../options/nearest-name.js';
import { compileTrackingPlan, type CompiledTrackingPlan } from '../tracking-plan/compile-plan.js';
import type { ViolationHandler } from '../tracking-plan/plan-types.js';
import type { MessageHandler } from './options.js';

type Handler = MessageHandler<WebhookMessage, unknown>;
type Handlers = Record<string, unknown>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `on.track` keyed by event name → one handler dispatching on `msg.event` ('*' for the rest, then `onMessage`). */
function keyedTrack(
  keyed: Handlers,
  plan: CompiledTrackingPlan,
  fallback: Handler | undefined,
  caller: string,
): Handler {
  const known = [...plan.eventNames, '*'];
  for (const [name, handler] of Object.entries(keyed)) {
    if (!known.includes(name)) {
      const near = nearestName(name, plan.eventNames);
      throw new UnknownOptionError(
        `on.track.${name}`,
        near && `on.track.${near}`,
        `${caller}: on.track has a handler for ${JSON.stringify(name)}, an event the tracking plan does not have` +
          (near ? `; did you mean ${JSON.stringify(near)}?` : '.') +
          ` Its events: ${plan.eventNames.map((e) => JSON.stringify(e)).join(', ')}; use '*' for events it does not name.`,
      );
    }
    if (typeof handler !== 'function') {
      throw new TypeError(
        `${caller}: on.track[${JSON.stringify(name)}] must be a function (msg, ctx) => …; got ${typeof handler}.`,
      );
    }
  }
  const byEvent = new Map(Object.entries(keyed) as [string, Handler][]);
  const other = byEvent.get('*') ?? fallback;
  return (message, context) => {
    const event = (message as { event?: unknown }).event;
    const handler = (typeof event === 'string' ? byEvent.get(event) : undefined) ?? other;
    return handler?.(message, context);
  };
}

/** Checks the message, records the outcome on the context, then runs `onViolation` or the handler. */
function checked(
  handler: Handler,
  plan: CompiledTrackingPlan,
  onViolation: ViolationHandler<unknown> | undefined,
): Handler {
  return (message, context) => {
    const { planned, violations } = plan.check(message);
    const ctx = context as { planned: boolean; violations: unknown };
    ctx.planned = planned;
    ctx.violations = violations;
    if (onViolation !== undefined && violations.length > 0) {
      return onViolation(message, violations, context);
    }
    return handler(message, context);
  };
}

/**
 * The receiver's options with the tracking plan applied to its handlers (internal): each handler of
 * `on` and `onMessage` checks its message first; `on.track` keyed by event name becomes one handler.
 * Returns the options unchanged without `trackingPlan`. Throws at start for a handler keyed by an event
 * the plan does not have (with a did-you-mean), keyed handlers or `onViolation` without a plan, and a
 * malformed plan (`TrackingPlanError`).
 *
 * @example
 * const options = applyTrackingPlan(checkReceiverOptions(given));
 * const rules = classicRules(options);
 */
export function applyTrackingPlan<T extends object>(options: T, caller = 'createReceiver()'): T {
  const given = options as { trackingPlan?: unknown; onViolation?: unknown; on?: Handlers; onMessage?: Handler };
  if (given.trackingPlan === undefined) {
    if (isPlainObject(given.on?.track)) {
      throw new TypeError(
        `${caller}: on.track is keyed by event name, which needs the tracking plan: pass trackingPlan (the plan's JSON, or the export of the module hookgate types writes).`,
      );
    }
    if (given.onViolation !== undefined) {
      throw new TypeError(
        `${caller}: onViolation runs for messages that break the tracking plan; pass trackingPlan too.`,
      );
    }
    return options;
  }
  const plan = compileTrackingPlan(given.trackingPlan);
  const onViolation = given.onViolation as ViolationHandler<unknown> | undefined;
  const on: Handlers | undefined = given.on && {};
  for (const [type, handler] of Object.entries(given.on ?? {})) {
    const run = isPlainObject(handler) ? keyedTrack(handler, plan, given.onMessage, caller) : (handler as Handler);
    on![type] = checked(run, plan, onViolation);
  }
  const onMessage = given.onMessage && checked(given.onMessage, plan, onViolation);
  return { ...options, ...(on && { on }), ...(onMessage && { onMessage }) };
}
