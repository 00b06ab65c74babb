import type { ReceiverSetup } from '../setup.js';
import type { ReceiverRequest, Refusal } from './request.js';

/**
 * The step that checks a message against the tracking plan (`trackingPlan`), part of the check stage:
 * its outcome goes on the request (the handler's `ctx.violations` and `ctx.planned`), and `onViolation`
 * takes the handler's place for a message that breaks the plan. It never refuses: a verified message
 * is never refused for its properties (Segment does not retry a 4xx; the event would be lost). Only a
 * message that runs a handler of `on` or `onMessage` is checked: not a mapped payload (`onPayload`),
 * nor one passed on to a route or a queue (the worker sees the message).
 *
 * @example
 * checkPlan(setup, request);
 * console.log(request.planCheck?.violations);
 */
export function checkPlan<TExtra>(setup: ReceiverSetup<TExtra>, request: ReceiverRequest<TExtra>): Refusal | undefined {
  const { plan } = setup;
  const { handler, message } = request;
  if (plan === undefined || handler === undefined || !plan.handlers.has(handler)) return undefined;
  const outcome = plan.plan.check(message);
  request.planCheck = outcome;
  const { onViolation } = plan;
  if (onViolation !== undefined && outcome.violations.length > 0) {
    const { violations } = outcome;
    request.handler = (msg, context) => onViolation(msg, violations, context);
  }
  return undefined;
}
