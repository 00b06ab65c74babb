import type { HandlerContext, ReceiverErrorInfo, ReceiverOptions } from './options.js';
import type { PlanHandlers, ViolationHandler } from '../tracking-plan/plan-types.js';
import type { SpecEventOf, SpecEventType } from '../actions/spec-events.js';
import type { StandardSchemaV1 } from '../actions/standard-schema.js';

/**
 * Where one element of an accepted batch stands (only with `insecureAcceptBatches`).
 *
 * @example
 * const onPayload = (payload: unknown, ctx: ActionsHandlerContext) => {
 *   if (ctx.batch && !ctx.batch.signed) console.warn(`element ${ctx.batch.index} of ${ctx.batch.size} is not covered by the signature`);
 * };
 */
export interface BatchElementInfo {
  /** This element's position in the batch (0-based). */
  index: number;
  /** How many elements the batch held. */
  size: number;
  /** Whether the signature covered this element: only element 0 of a signed batch, never one of an unsigned batch. */
  signed: boolean;
  /** Every element index the signature did not cover (anyone could have added or changed those). */
  uncovered: readonly number[];
  /**
   * The indexes of `null` elements, skipped (no handler runs for them): Segment's code keeps `null`
   * where a mapping's `data` came out empty. A batch whose element 0 is `null` is unsigned.
   */
  skipped: readonly number[];
}

/**
 * What a Webhooks (Actions) handler receives beside the payload: the classic context plus `batch`.
 *
 * @example
 * const onTrack = (e: SpecTrackEvent, ctx: ActionsHandlerContext) => console.log(e.event, ctx.header('user-agent'), ctx.batch?.index);
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}` is the identity of `&`: no extra context fields
export type ActionsHandlerContext<TExtra = {}> = HandlerContext<TExtra> & {
  /** `undefined` for a single event; the element's place and coverage for an element of a batch. */
  batch: BatchElementInfo | undefined;
};

/**
 * A handler for one whole Segment event type. Throwing answers 500 (the sender retries).
 *
 * @example
 * const onTrack: SpecEventHandler<'track'> = (e) => console.log(e.event, e.messageId);
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}` is the identity of `&`: no extra context fields
export type SpecEventHandler<T extends SpecEventType, TExtra = {}> = (
  event: SpecEventOf<T>,
  context: ActionsHandlerContext<TExtra>,
) => unknown;

/**
 * Handlers per Segment event type, for the default mapping (the whole event).
 *
 * @example
 * const on: SpecEventHandlers = { track: (e) => console.log(e.event), alias: (e) => console.log(e.previousId, '→', e.userId) };
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}` is the identity of `&`: no extra context fields
export type SpecEventHandlers<TExtra = {}> = { [T in SpecEventType]?: SpecEventHandler<T, TExtra> };

/**
 * The whole Segment events a plan's rules refine in an Actions receiver's (or worker's) `on`
 * (`PlanHandlers`' `M`).
 *
 * @example
 * type On = PlanHandlers<typeof trackingPlan, SpecEventHandlers, ActionsHandlerContext, SpecPlanEvents>;
 */
export interface SpecPlanEvents {
  track: SpecEventOf<'track'>;
  identify: SpecEventOf<'identify'>;
  group: SpecEventOf<'group'>;
  page: SpecEventOf<'page'>;
  screen: SpecEventOf<'screen'>;
}

/**
 * The payload type `onPayload` receives: the schema's output, else any JSON object.
 *
 * @example
 * type Order = PayloadOf<typeof orderSchema>; // z.infer<typeof orderSchema>
 */
export type PayloadOf<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : Record<string, unknown>;

/**
 * What a Webhooks (Actions) receiver hands on without handlers (a pass-through route's
 * `req.webhookPayload`, `request.webhookPayload`, `c.get('webhook')`): any verified JSON object, the
 * mapping's `data`. With the default mapping it is the whole Segment event: narrow it with `isSpecEvent`.
 *
 * @example
 * const payload: ActionsPayload = req.webhookPayload!;
 * if (isSpecEvent(payload) && payload.type === 'track') console.log(payload.event);
 */
export type ActionsPayload = Record<string, unknown>;

/**
 * What a Webhooks (Actions) receiver's `onError` gets: the classic fields, with `message` the payload
 * as it arrived (or a batch's elements).
 *
 * @example
 * const onError = (error: unknown, info: ActionsErrorInfo) => console.error(info.phase, Array.isArray(info.message) ? 'batch' : info.message?.messageId, error);
 */
export interface ActionsErrorInfo extends Omit<ReceiverErrorInfo, 'message'> {
  /** The payload that failed, or a batch's elements; absent when none was read. */
  message?: ActionsPayload | readonly ActionsPayload[];
}

/**
 * Options of `createReceiver` for the Webhooks (Actions) destination. The classic options apply
 * (secret, mode, deadlineMs, maxBodyBytes, dedupe, …); `on` takes whole Segment events, `onPayload`
 * any mapped payload (checked by `schema` when given).
 *
 * @example
 * import { z } from 'zod';
 * const receiver = createReceiver({
 *   destination: 'actions',
 *   secret: process.env.WEBHOOK_SECRET!,
 *   schema: z.object({ orderId: z.string(), total: z.number() }),
 *   onPayload: (order) => console.log(order.orderId, order.total),
 * });
 */
export interface ActionsReceiverOptions<
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}` is the identity of `&`: no extra context fields
  TExtra = {},
  S extends StandardSchemaV1 | undefined = undefined,
  TPlan = unknown,
> extends Omit<
  ReceiverOptions<TExtra>,
  'on' | 'onMessage' | 'strictTimestamps' | 'destination' | 'onError' | 'trackingPlan' | 'onViolation'
> {
  /** Receive Segment's Webhooks (Actions) destination (PUT, PATCH and POST; mapped payloads; batches). */
  destination: 'actions';
  /**
   * Handlers per Segment event type: a body whose `type` has a handler here must be a whole Segment event.
   * With `trackingPlan`, `on.track` may be keyed by event name (`'*'` for the rest), typed by the plan module.
   */
  on?: PlanHandlers<NoInfer<TPlan>, SpecEventHandlers<TExtra>, ActionsHandlerContext<TExtra>, SpecPlanEvents>;
  /** Segment tracking plan, compiled: `compileTrackingPlan(plan)` from `@hookgate/plans`. Whole events get `ctx.violations` and `ctx.planned`; mapped payloads are not checked. */
  trackingPlan?: TPlan;
  /** Runs instead of the `on` handler for a whole event that breaks `trackingPlan`. */
  onViolation?: ViolationHandler<ActionsHandlerContext<TExtra>>;
  /** Runs for every other payload (a mapped `data`, or an event type without its own handler in `on`). */
  onPayload?: (payload: PayloadOf<S>, context: ActionsHandlerContext<TExtra>) => unknown;
  /** A Standard Schema (Zod, Valibot, ArkType, TypeBox, …) for the payloads `onPayload` gets: 400 with its issues otherwise. */
  schema?: S;
  /**
   * Batches (`enable_batching` in the mapping) are signed over their first element only, so they are
   * refused (422 `batch_refused`) by default. `true` accepts a batch whose signature matches its
   * first element; `'including-unsigned'` also accepts batches without `X-Signature` (newer Segment
   * code sends them so). Every element is handled once; `ctx.batch` says which the signature did not cover.
   */
  insecureAcceptBatches?: boolean | 'including-unsigned';
  /** Reports failures (handler, background, store, enqueue); `info.message` is the payload or a batch's elements. Default: a warning through `logger`. */
  onError?: (error: unknown, info: ActionsErrorInfo) => void;
}

/**
 * The options of either destination: what adapters accept and pass to `createReceiver`.
 *
 * @example
 * const options: AnyReceiverOptions = process.env.SEGMENT_ACTIONS ? { destination: 'actions', secret, onPayload } : { secret, onMessage };
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any, @typescript-eslint/no-empty-object-type -- any schema; `{}` is the identity of `&` (no extra context fields)
export type AnyReceiverOptions<TExtra = {}> = ReceiverOptions<TExtra> | ActionsReceiverOptions<TExtra, any>;

/**
 * What `destination` names: `'classic'` or left out (the Webhooks destination), or `'actions'`.
 *
 * @example
 * const destination: ReceiverDestination = process.env.SEGMENT_ACTIONS ? 'actions' : 'classic';
 */
export type ReceiverDestination = 'classic' | 'actions' | undefined;

/**
 * The options of the destination `D` names: `ActionsReceiverOptions` for `'actions'`, else the
 * classic `ReceiverOptions`. `createReceiver` and the adapters take one parameter of this type, `D`
 * inferred from the `destination` given, instead of a union or overloads of both: so a mistake in a
 * classic receiver's options is reported against the classic types (`MessageHandler`), not Actions'
 * (`SpecEventHandler`), and an Actions mistake against Actions'.
 *
 * @example
 * function myReceiver<D extends ReceiverDestination = 'classic'>(options: ReceiverOptionsFor<D>) {
 *   return createReceiver(options as AnyReceiverOptions);
 * }
 * myReceiver({ secret, on: { track: (msg) => console.log(msg.event) } }); // msg: TrackMessage
 */
export type ReceiverOptionsFor<
  D extends ReceiverDestination,
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}` is the identity of `&`: no extra context fields
  TExtra = {},
  S extends StandardSchemaV1 | undefined = undefined,
  TPlan = unknown,
> = (D extends 'actions' ? ActionsReceiverOptions<TExtra, S, TPlan> : ReceiverOptions<TExtra, TPlan>) & {
  destination?: D;
};
