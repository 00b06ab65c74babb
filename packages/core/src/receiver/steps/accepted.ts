import { abortContext, handlerContext } from '../handler-context.js';
import type { AcceptedMessage } from '../receiver.js';
import type { ReceiverSetup } from '../setup.js';
import { settleClaim } from './claim.js';
import type { ClaimedRequest } from './request.js';

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
  request: ClaimedRequest<TExtra>,
): AcceptedMessage<TExtra> {
  const { input, message, dedupeKey } = request;
  const { lossy } = request;
  const context = handlerContext({
    extra: input.context as TExtra,
    headers: input.headers,
    dedupeKey,
    verification: request.verification,
    receivedAt: request.receivedAt,
    planCheck: request.planCheck,
    lossyNumbers: () => lossy().map((n) => n.path),
  });
  return {
    kind: 'message',
    message,
    signedBody: request.signedBody,
    context,
    settle: (outcome) => settleClaim(setup, dedupeKey, outcome, { message }),
    abort: (reason) => abortContext(context, reason),
  };
}
