// The tracking plan settled once, when the receiver is created (internal): the compiled plan checked, `on.track`
// keyed by event name made one handler that picks by `msg.event`, and the start-up errors. Each message
// is checked by the step steps/check-plan.ts, which never answers the sender differently: a verified
// message is never refused for its properties (Segment would not retry a 4xx; the event would be lost).
import { isSpecEvent } from '../actions/spec-event-check.js';
import type { WebhookMessage } from '../messages/types.js';
import { nearestName, UnknownOptionError } from '../options/nearest-name.js';
import { isCompiledTrackingPlan, type CompiledTrackingPlan } from '../tracking-plan/compiled-plan.js';
import type { ViolationHandler } from '../tracking-plan/plan-types.js';
import type { MessageHandler } from './options.js';

type Handler = MessageHandler<WebhookMessage, unknown>;
type Handlers = Record<string, unknown>;

/**
 * What the plan step reads (internal): the compiled plan, `onViolation`, which handler runs a message
 * (`handlerFor`) and which messages the plan applies to (`appliesTo`): every message but a mapped
 * payload `onPayload` runs (no plan describes those), that is every classic message and every whole
 * Segment event, whether a handler of `on` or `onMessage` runs it, the framework's route does
 * (pass-through use), or nothing does (so `onViolation` still runs for it).
 *
 * @example
 * const handler = planSetup.handlerFor(message, rules.handlerFor(message));
 * if (planSetup.appliesTo(message, handler)) console.log(planSetup.plan.check(message).violations);
 */
export interface PlanSetup {
  plan: CompiledTrackingPlan<unknown>;
  onViolation: ViolationHandler<unknown> | undefined;
  /**
   * The handler that runs `message`, given the one its type picked: for `on.track` keyed by event
   * name, the event's own handler, else `'*'`, else `onMessage`, else none (`undefined`: unhandled).
   */
  handlerFor<H>(message: unknown, picked: H | undefined): H | undefined;
  appliesTo(message: unknown, handler: unknown): boolean;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `on.track` keyed by event name → what picks a handler by `msg.event` ('*' for the rest, then `onMessage`). */
function keyedTrack(
  keyed: Handlers,
  plan: CompiledTrackingPlan<unknown>,
  fallback: Handler | undefined,
  caller: string,
): (message: unknown) => Handler | undefined {
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
  return (message) => {
    const event = (message as { event?: unknown }).event;
    return (typeof event === 'string' ? byEvent.get(event) : undefined) ?? other;
  };
}

/**
 * Settles the receiver's `trackingPlan` (internal; also a worker's, `@hookgate/bullmq`): the options with
 * `on.track` keyed by event name made one handler, and what the plan step reads (`undefined` without a
 * plan). Throws at start for a handler keyed by an event the plan does not have (with a did-you-mean),
 * keyed handlers or `onViolation` without a plan, a plan with `enqueue` (the worker takes it), and a
 * plan not compiled by `compileTrackingPlan` (`@hookgate/plans`).
 *
 * @example
 * const { options, plan } = settleTrackingPlan(checkReceiverOptions(given));
 * const rules = classicRules(options);
 */
export function settleTrackingPlan<T extends object>(
  options: T,
  caller = 'createReceiver()',
): { options: T; plan: PlanSetup | undefined } {
  const given = options as {
    trackingPlan?: unknown;
    onViolation?: unknown;
    on?: Handlers;
    onMessage?: Handler;
    enqueue?: unknown;
    destination?: unknown;
  };
  if (given.trackingPlan === undefined) {
    if (isPlainObject(given.on?.track)) {
      throw new TypeError(
        `${caller}: on.track is keyed by event name, which needs the tracking plan: pass trackingPlan: compileTrackingPlan(plan) from @hookgate/plans.`,
      );
    }
    if (given.onViolation !== undefined) {
      throw new TypeError(
        `${caller}: onViolation runs for messages that break the tracking plan; pass trackingPlan too.`,
      );
    }
    return { options, plan: undefined };
  }
  if (given.enqueue != null) {
    throw new TypeError(
      `${caller}: trackingPlan with enqueue: the messages are handled by your worker, not here. Pass trackingPlan ` +
        '(and onViolation, keyed on.track) to the worker instead, e.g. createWorker(queueName, { connection, trackingPlan, on }) from @hookgate/bullmq: it checks each job against it.',
    );
  }
  const plan = given.trackingPlan;
  if (!isCompiledTrackingPlan(plan)) {
    // Compiling is @hookgate/plans' work (Ajv, RE2): a receiver without a plan carries none of it.
    throw new TypeError(
      `${caller}: trackingPlan must be a compiled plan. Add the package @hookgate/plans (npm install @hookgate/plans) ` +
        `and pass trackingPlan: compileTrackingPlan(plan), with import { compileTrackingPlan } from '@hookgate/plans' ` +
        `(plan: the plan's JSON, or the trackingPlan export of the module hookgate types writes).`,
    );
  }
  const track = given.on?.track;
  const pickTrack = isPlainObject(track) ? keyedTrack(track, plan, given.onMessage, caller) : undefined;
  // `on.track` stays a handler for the destination's rules (a track message, a whole track event, is
  // theirs); `handlerFor` then swaps it for the event's own, or none.
  const keyedHandler: Handler | undefined = pickTrack && ((message, context) => pickTrack(message)?.(message, context));
  const on = keyedHandler ? { ...given.on, track: keyedHandler } : given.on;
  const handlers = new Set<unknown>(
    [...Object.values(on ?? {}), ...(isPlainObject(track) ? Object.values(track) : []), given.onMessage].filter(
      (h) => h !== undefined,
    ),
  );
  const actions = given.destination === 'actions';
  // No handler: the framework's route runs it (pass-through), or nothing does; `onViolation` runs either way.
  const appliesTo = (message: unknown, handler: unknown): boolean =>
    handler === undefined ? !actions || isSpecEvent(message) : handlers.has(handler);
  const handlerFor = <H>(message: unknown, picked: H | undefined): H | undefined =>
    pickTrack !== undefined && picked === keyedHandler ? (pickTrack(message) as H | undefined) : picked;
  return {
    options: on === given.on ? options : { ...options, on },
    plan: { plan, onViolation: given.onViolation as ViolationHandler<unknown> | undefined, handlerFor, appliesTo },
  };
}
