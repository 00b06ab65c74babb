// A worker's tracking plan: the same plan a receiver takes, checked where the handlers run. The worker
// checks each job's message against its own `trackingPlan` (not a verdict stored in the job): the
// violations are then those of the plan the handlers' types come from, even for a job stored before
// the plan changed, and a job stays only what the receiver verified.
import { guardedPlanCheck, settleTrackingPlan, type PlanSetup } from '@hookgate/core/internal';
import type { JobContext, JobHandler } from './job-context.js';

/**
 * A worker's options with its tracking plan settled: `on.track` keyed by event name made one handler,
 * and the plan (`undefined` without `trackingPlan`). Throws at start as a receiver does: a handler for
 * an event the plan does not have (with a did-you-mean), keyed handlers or `onViolation` without a
 * plan, a malformed plan.
 *
 * @example
 * const { options, plan } = settleWorkerPlan(given);
 * const run = await planned(plan, job.data.message, options.on?.track, context);
 */
export function settleWorkerPlan<T extends object>(given: T): { options: T; plan: PlanSetup | undefined } {
  return settleTrackingPlan(given, 'createWorker()');
}

/**
 * The handler to run for a job's message under the worker's plan, given the one its type picked:
 * for `on.track` keyed by event name the event's own (else `'*'`, else `onMessage`); sets
 * `context.violations` and `context.planned` when the plan applies to the message (every message but
 * a payload for `onPayload`), and returns `onViolation` instead for a message that breaks the plan,
 * whether or not a handler exists for it. `undefined`: nothing runs the message (the job completes).
 *
 * @example
 * const run = planned(plan, message, on?.[message.type] ?? onMessage, context);
 * await run?.(message, context);
 */
export function planned<M>(
  plan: PlanSetup | undefined,
  message: M,
  picked: JobHandler<M> | undefined,
  context: JobContext,
): JobHandler<M> | undefined {
  if (plan === undefined) return picked;
  const handler = plan.handlerFor(message, picked);
  if (!plan.appliesTo(message, handler)) return handler;
  // A check that throws is a violation naming it: the job runs (or onViolation does), never failing on
  // every retry alike.
  const outcome = guardedPlanCheck(plan.plan, message);
  context.planned = outcome.planned;
  context.violations = outcome.violations;
  const { onViolation } = plan;
  if (onViolation === undefined || outcome.violations.length === 0) return handler;
  const { violations } = outcome;
  return (msg, ctx) => onViolation(msg as unknown as { type: string }, violations, ctx);
}
