import type { WebhookMessage } from '../../messages/types.js';
import type { PlanViolation } from '../../tracking-plan/json-schema-validator.js';
import { guardedPlanCheck } from '../guarded-plan-check.js';
import type { MessageHandler } from '../options.js';
import type { ReceiverSetup } from '../setup.js';
import type { Checked, Parsed } from './request.js';

/**
 * The step that checks a message against the tracking plan (`trackingPlan`), after the dedupe claim (a
 * resend of a message handled before is answered `duplicate` without its check): its outcome goes on the request (the handler's `ctx.violations` and `ctx.planned`), and `onViolation`
 * takes the handler's place for a message that breaks the plan. It never refuses: a verified message
 * is never refused for its properties (Segment does not retry a 4xx; the event would be lost). A
 * message is checked where a handler runs: a handler of `on` or `onMessage`, or in pass-through use
 * the framework's route (every classic message, every whole Segment event); not a mapped payload
 * (`onPayload`), nor a message for a queue (`createWorker` checks it against its own `trackingPlan`).
 *
 * @example
 * const planned = checkPlan(setup, checked);
 * console.log(planned.planCheck?.violations);
 */
export function checkPlan<TExtra, R extends Checked<TExtra> & Parsed>(setup: ReceiverSetup<TExtra>, request: R): R {
  const { plan } = setup;
  const { handler, message } = request;
  if (plan === undefined || !plan.appliesTo(message, handler)) return request;
  // With bigNumbers: 'string', the numbers kept as exact digits are checked as the numbers they are.
  // A check that throws is a violation naming it (guardedPlanCheck): never a rejected request.
  const planCheck = guardedPlanCheck(plan.plan, message, setup.bigNumbers === 'string' ? request.lossy() : undefined);
  const { onViolation } = plan;
  if (onViolation === undefined || planCheck.violations.length === 0) return Object.assign(request, { planCheck });
  const { violations } = planCheck;
  const instead: MessageHandler<WebhookMessage, TExtra> = (msg, context) => onViolation(msg, violations, context);
  return Object.assign(request, { planCheck, handler: instead });
}

/**
 * The handler `receiver.run` runs for an accepted message (the route, in pass-through use): `onViolation`
 * instead, when it is given and the message broke the plan (its context's `violations`), as `handle`
 * does for its own handlers.
 *
 * @example
 * return runHandler(setup, accepted, planHandler(setup, accepted, () => adapter.next(call, accepted)));
 */
export function planHandler<TExtra>(
  setup: ReceiverSetup<TExtra>,
  accepted: { readonly context: { readonly violations: readonly PlanViolation[] } },
  handler: MessageHandler<WebhookMessage, TExtra>,
): MessageHandler<WebhookMessage, TExtra> {
  const onViolation = setup.plan?.onViolation;
  const { violations } = accepted.context;
  if (onViolation === undefined || violations.length === 0) return handler;
  return (msg, context) => onViolation(msg, violations, context);
}
