import {
  SPEC_EVENT_TYPES,
  type SpecEventOf,
  type SpecEventType,
  type StandardSchemaV1,
  type Telemetry,
  type PayloadOf,
  type PlanHandlers,
  type SpecPlanEvents,
  type ViolationHandler,
} from '@hookgate/core';
import { isSpecEventType, isStandardSchema, specEventIssues, validateStandard } from '@hookgate/core/internal';
import type { PlanSetup } from '@hookgate/core/internal';
import { UnrecoverableError, type ConnectionOptions, type WorkerOptions } from 'bullmq';
import type { JobContext, JobHandler } from './job-context.js';
import { planned } from './job-plan.js';

/**
 * A worker's handlers per Segment event type, for jobs from a Webhooks (Actions) receiver with the
 * default mapping (the whole event): the same `on` shape as an Actions receiver's.
 *
 * @example
 * const on: ActionsJobHandlers = { track: (event) => console.log(event.event, event.messageId), identify: (event) => crm.upsert(event.userId, event.traits) };
 */
export type ActionsJobHandlers = { [T in SpecEventType]?: JobHandler<SpecEventOf<T>> };

/**
 * Options of `createWorker` for jobs stored by a Webhooks (Actions) receiver (`destination: 'actions'`
 * and `enqueue: enqueueTo(queue)`): `on` gets whole Segment events, `onPayload` every other payload
 * (a mapped `data`), checked by `schema` when given. BullMQ's worker options pass on as they are.
 *
 * @example
 * import { z } from 'zod';
 * const options: ActionsWorkerOptions<typeof order> = {
 *   destination: 'actions',
 *   connection: { host: '127.0.0.1', port: 6379 },
 *   schema: order, // z.object({ orderId: z.string(), total: z.number() })
 *   onPayload: (o) => console.log(o.orderId, o.total),
 * };
 */
export interface ActionsWorkerOptions<S extends StandardSchemaV1 | undefined = undefined, TPlan = unknown> extends Omit<
  WorkerOptions,
  'connection' | 'telemetry'
> {
  /** Jobs from a Webhooks (Actions) receiver; a classic job fails naming the mismatch. */
  destination: 'actions';
  /** The Redis connection (BullMQ's: options or an ioredis instance). */
  connection: ConnectionOptions;
  /** Handlers per Segment event type: a payload whose `type` has a handler here must be a whole Segment event (else the job fails, not retried). */
  on?: PlanHandlers<NoInfer<TPlan>, ActionsJobHandlers, JobContext, SpecPlanEvents>;
  /** Runs for every other payload (a mapped `data`, or an event type without its own handler in `on`). */
  onPayload?: JobHandler<PayloadOf<S>>;
  /** A Standard Schema (Zod, Valibot, ArkType, TypeBox, …) for `onPayload`'s payloads: a payload it refuses fails the job with its issues, not retried. */
  schema?: S;
  /**
   * Segment tracking plan, as a receiver takes it: each whole event `on` gets is checked against it
   * (`ctx.violations`, `ctx.planned`); mapped payloads (`onPayload`) are not. `on.track` may then be
   * keyed by event name, typed by the plan module as with an Actions receiver.
   */
  trackingPlan?: TPlan;
  /** Runs instead of the `on` handler for a whole event that breaks `trackingPlan`. */
  onViolation?: ViolationHandler<JobContext>;
  /** Reports each job attempt, in the trace of the delivery that stored the job (see `CreateWorkerOptions.telemetry`). */
  telemetry?: Telemetry;
}

/** Names `createWorker` itself reads from Actions options (the rest are BullMQ's). */
export const ACTIONS_WORKER_OWN_OPTIONS: readonly string[] = ['destination', 'on', 'onPayload', 'schema'];

/**
 * Checks Actions worker options and returns the job runner: routes a payload to `on[type]` (after
 * checking it is a whole Segment event) or to `onPayload` (after `schema`), as an Actions receiver
 * does. A payload that can never pass fails with `UnrecoverableError` (no retry), naming the field.
 * With the worker's tracking plan (`settleWorkerPlan`), a whole event is checked before its handler.
 *
 * @example
 * const run = actionsJobRunner(options, plan);
 * await run(job.data.message, context);
 */
export function actionsJobRunner(
  options: ActionsWorkerOptions<StandardSchemaV1 | undefined>,
  plan?: PlanSetup,
): (payload: unknown, context: JobContext) => Promise<void> {
  const { on, onPayload, schema } = options;
  if ((options as { onMessage?: unknown }).onMessage !== undefined) {
    throw new TypeError(
      "createWorker (destination: 'actions'): onMessage is the classic worker's catch-all; use onPayload for Webhooks (Actions) payloads.",
    );
  }
  if (on == null && onPayload == null) {
    throw new TypeError(
      "createWorker (destination: 'actions'): give handlers in `on` (per Segment event type) or `onPayload`; without them every job would complete unprocessed.",
    );
  }
  if (on != null) {
    for (const [type, handler] of Object.entries(on)) {
      if (!isSpecEventType(type))
        throw new TypeError(
          `createWorker (destination: 'actions'): on.${type} is not a Segment event type; use one of ${SPEC_EVENT_TYPES.join(', ')}.`,
        );
      if (handler != null && typeof handler !== 'function')
        throw new TypeError(`createWorker: on.${type} must be a function (event, ctx) => …`);
    }
  }
  if (onPayload != null && typeof onPayload !== 'function')
    throw new TypeError('createWorker: onPayload must be a function (payload, ctx) => …');
  if (schema !== undefined) {
    if (!isStandardSchema(schema))
      throw new TypeError(
        "createWorker: schema must be a Standard Schema (Zod 3.24+, Valibot 1, ArkType 2, TypeBox's adapter, …), e.g. z.object({ orderId: z.string() }).",
      );
    if (onPayload == null)
      throw new TypeError('createWorker: schema checks the payloads onPayload gets; give onPayload too.');
  }
  const handlers = on as Record<string, JobHandler<unknown> | undefined> | undefined;

  return async (payload, context) => {
    const id = context.job.id ?? '(no id)';
    const record =
      typeof payload === 'object' && payload !== null && !Array.isArray(payload)
        ? (payload as Record<string, unknown>)
        : undefined;
    const type = record?.type;
    const handler = isSpecEventType(type) ? handlers?.[type] : undefined;
    if (handler) {
      const issues = specEventIssues(record);
      if (issues.length > 0) {
        throw new UnrecoverableError(
          `Job ${String(id)}: on.${String(type)} gets whole Segment ${String(type)} events (the mapping's default data), and this payload is not one: ` +
            `${issues.map((i) => `${i.path} ${i.message}`).join('; ')}. For a mapped payload, use onPayload.`,
        );
      }
      await planned(plan, record, handler, context)?.(record, context);
      return;
    }
    // A whole event nothing handles still meets the plan: `onViolation` runs for it.
    if (onPayload == null) return void (await planned(plan, payload, undefined, context)?.(payload, context));
    if (schema === undefined) {
      await onPayload(payload, context);
      return;
    }
    const result = await validateStandard(schema, payload);
    if ('issues' in result) {
      throw new UnrecoverableError(
        `Job ${id}: the payload does not match the worker's schema: ${result.issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
      );
    }
    await onPayload(result.value, context);
  };
}
