// The types a tracking plan gives handlers: `on.track` keyed by event name, each message typed from its rule.
import type {
  ExtraFields,
  GroupMessage,
  IdentifyMessage,
  PageMessage,
  ScreenMessage,
  TrackMessage,
} from '../messages/types.js';
import type { PlanViolation, PrecompiledValidator, TrackingPlanRule } from './compiled-plan.js';

/**
 * The event types a plan module declares (types only): per track event name, and for identify, group,
 * page and screen, the whole-event type its rule gives (`properties` or `traits` are read from it).
 *
 * @example
 * interface Shapes extends PlanShapes {
 *   track: { 'Order Completed': { properties: { order_id: string; total?: number } } };
 *   identify: { traits: { email: string } };
 *   group: {}; page: {}; screen: {};
 * }
 */
export interface PlanShapes {
  track: { [event: string]: object };
  identify: object;
  group: object;
  page: object;
  screen: object;
}

/**
 * A tracking plan with its event types: the `trackingPlan` export of the module `hookgate types` writes.
 * Compiled by `compileTrackingPlan` (`@hookgate/plans`) and passed as the receiver's `trackingPlan`, it types
 * every keyed handler in `on.track`.
 *
 * @example
 * import { trackingPlan } from './tracking-plan.js'; // written by: hookgate types --plan plan.json --out src/tracking-plan.ts
 * createReceiver({
 *   secret,
 *   trackingPlan: compileTrackingPlan(trackingPlan), // import { compileTrackingPlan } from '@hookgate/plans'
 *   on: { track: { 'Order Completed': (msg) => console.log(msg.properties.total.toFixed(2)) } },
 * });
 */
export interface TypedTrackingPlan<S extends PlanShapes> {
  readonly rules: readonly TrackingPlanRule[];
  /** Each rule's validator, precompiled by Ajv (plain functions), in the order of `rules`. */
  readonly validators?: readonly PrecompiledValidator[];
  /** Types only; never present at run time. */
  readonly '~shapes'?: S;
}

// Handlers below take the context type `C` as a parameter (the receiver's `HandlerContext`), so that
// these types need nothing of the receiver's options, which use them. `X extends infer T ? { [K in keyof T]: T[K] } & {} : never` spells an intersection out as one
// object type, so that editor hovers show plain fields.

/**
 * A handler of a message a tracking plan refines: `(message, context) => unknown`, with `C` the handler
 * context (the receiver's `HandlerContext`). A name of its own, so the compiler's message for a wrong
 * handler names it instead of spelling the whole function type out.
 *
 * @example
 * const onOrder: PlanMessageHandler<PlannedTrackMessage<typeof trackingPlan, 'Order Completed'>, HandlerContext> = (
 *   msg,
 * ) => console.log(msg.properties.order_id);
 */
export type PlanMessageHandler<M, C> = (message: M, context: C) => unknown;

/**
 * The event types of a plan module (`typeof trackingPlan`), or `undefined` for a plan without types
 * (its JSON as read).
 *
 * @example
 * type Shapes = PlanShapesOf<typeof trackingPlan>; // the module's PlanShapes
 * type None = PlanShapesOf<TrackingPlanFile>; // undefined
 */
export type PlanShapesOf<P> = P extends { readonly '~shapes'?: infer S }
  ? S extends PlanShapes
    ? S
    : undefined
  : undefined;

/**
 * The message types a plan's rules refine, per call type: the classic Webhooks messages by default;
 * a Webhooks (Actions) receiver's whole Segment events (`SpecEventOf<'track'>`, …) for its `on`.
 *
 * @example
 * type Classic = PlanMessages; // { track: TrackMessage; identify: IdentifyMessage; … }
 */
export interface PlanMessages {
  track: TrackMessage;
  identify: IdentifyMessage;
  group: GroupMessage;
  page: PageMessage;
  screen: ScreenMessage;
}

/**
 * The track message of one planned event: `event` is its name, `properties` its rule's type. `T` is
 * the track message type refined (a classic `TrackMessage` by default, or a whole Segment track event).
 *
 * @example
 * type OrderCompleted = PlannedTrackMessage<typeof trackingPlan, 'Order Completed'>;
 */
export type PlannedTrackMessage<P, E extends string, T = TrackMessage> =
  PlanShapesOf<P> extends PlanShapes
    ? E extends keyof PlanShapesOf<P>['track']
      ? Omit<T, Extract<keyof PlanShapesOf<P>['track'][E], 'properties'> | 'event'> &
          Pick<PlanShapesOf<P>['track'][E], Extract<keyof PlanShapesOf<P>['track'][E], 'properties'>> & {
            event: E;
          } extends infer F
        ? { [K in keyof F]: F[K] } & {}
        : never
      : T
    : T;

/**
 * An identify, group, page or screen message (`M`) typed from its rule in a plan module: its `traits`
 * (identify, group) or `properties` (page, screen) are the rule's when the plan has types.
 *
 * @example
 * type SignedUp = PlannedMessage<typeof trackingPlan, 'identify', IdentifyMessage>;
 * const email = (msg: SignedUp) => msg.traits.email;
 */
export type PlannedMessage<P, K extends 'identify' | 'group' | 'page' | 'screen', M> =
  PlanShapesOf<P> extends PlanShapes
    ? Omit<M, Extract<keyof PlanShapesOf<P>[K], K extends 'identify' | 'group' ? 'traits' : 'properties'>> &
        Pick<
          PlanShapesOf<P>[K],
          Extract<keyof PlanShapesOf<P>[K], K extends 'identify' | 'group' ? 'traits' : 'properties'>
        > extends infer F
      ? { [Key in keyof F]: F[Key] } & {}
      : never
    : M;

/**
 * `on.track` keyed by event name: a handler per event the plan names, `'*'` for the others (events the
 * plan does not name, and named events without their own handler). `C` is the handler context, `T`
 * the track message type (a classic `TrackMessage` by default).
 *
 * @example
 * const track: KeyedTrackHandlers<typeof trackingPlan, HandlerContext> = {
 *   'Order Completed': (msg) => console.log(msg.properties.order_id),
 *   '*': (msg) => console.log('other event', msg.event),
 * };
 */
export type KeyedTrackHandlers<P, C, T = TrackMessage> = (PlanShapesOf<P> extends PlanShapes
  ? { [E in keyof PlanShapesOf<P>['track'] & string]?: PlanMessageHandler<PlannedTrackMessage<P, E, T>, C> }
  : { [event: string]: PlanMessageHandler<T, C> | undefined }) & {
  '*'?: PlanMessageHandler<T, C>;
};

/**
 * The receiver's `on` with a tracking plan: `Base` (the handlers per message type) with `track` a
 * handler or handlers keyed by event name, and identify, group, page and screen messages typed from their
 * rules (when the plan module has types). `C` is the handler context; `M` the message types refined
 * (the classic messages by default; a Webhooks (Actions) receiver passes its whole Segment events).
 *
 * @example
 * const on: PlanHandlers<typeof trackingPlan, MessageHandlers, HandlerContext> = {
 *   identify: (msg) => console.log(msg.traits.email),
 * };
 */
export type PlanHandlers<P, Base, C, M extends Record<keyof PlanMessages, object> = PlanMessages> = Omit<
  Base,
  'track' | 'identify' | 'group' | 'page' | 'screen'
> & {
  track?: PlanMessageHandler<M['track'], C> | KeyedTrackHandlers<P, C, M['track']>;
  identify?: PlanMessageHandler<PlannedMessage<P, 'identify', M['identify']>, C>;
  group?: PlanMessageHandler<PlannedMessage<P, 'group', M['group']>, C>;
  page?: PlanMessageHandler<PlannedMessage<P, 'page', M['page']>, C>;
  screen?: PlanMessageHandler<PlannedMessage<P, 'screen', M['screen']>, C>;
} extends infer F
  ? { [K in keyof F]: F[K] } & {}
  : never;

/**
 * Runs instead of the handler for a message that breaks the tracking plan (the receiver's
 * `onViolation`); `C` is the handler context. Its outcome is the handler's would be: return normally
 * and the sender is answered 200; a plan never makes the receiver refuse a verified message.
 *
 * @example
 * const onViolation: ViolationHandler<HandlerContext> = (msg, violations, ctx) =>
 *   console.warn(`${msg.type} ${ctx.dedupeKey}: ${violations.map((v) => `${v.path} ${v.message}`).join('; ')}`);
 */
export type ViolationHandler<C> = (
  message: { type: string } & ExtraFields,
  violations: readonly PlanViolation[],
  context: C,
) => unknown;
