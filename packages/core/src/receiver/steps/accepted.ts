import { RequestContext } from '../handler-context.js';
import type { HandlerContext } from '../options.js';
import type { AcceptedMessage } from '../receiver.js';
import type { ReceiverSetup } from '../setup.js';
import { settleClaim } from './claim.js';
import type { ReceiverRequest } from './request.js';

/**
 * A request that went through every step, as `accept` hands it over: the message, what was signed,
 * the handler's context, and how to settle its dedupe claim or fire its `signal`.
 *
 * @example
 * const accepted = acceptedMessage(setup, request);
 * await accepted.settle('handled');
 */
export function acceptedMessage<TExtra>(
  setup: ReceiverSetup<TExtra>,
  request: ReceiverRequest<TExtra>,
): AcceptedMessage<TExtra> {
  const { input, message, dedupeKey } = request;
  const context = new RequestContext(input.context, input.headers, dedupeKey, request.verification, request.receivedAt);
  if (request.planCheck) {
    context.planned = request.planCheck.planned;
    context.violations = request.planCheck.violations;
  }
  context.lossyNumbers = Object.freeze(request.lossy.map((n) => n.path));
  return {
    kind: 'message',
    message,
    signedBody: request.signedBody,
    context: context as unknown as HandlerContext<TExtra>,
    settle: (outcome) => settleClaim(setup, dedupeKey, outcome, { message }),
    abort: (reason) => RequestContext.abort(context, reason),
  };
}
