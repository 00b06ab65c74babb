import { receiverResponse, type ReceiverResponse } from '../responses.js';
import type { FixedRefusal } from '../fixed-answers.js';
import type { Refusal } from './request.js';

/**
 * The last step: the receiver's JSON answer for a refusal of any step (status from the code, the
 * message, extra fields and headers); a refusal made once with its answer (`fixedRefusal`) gives that.
 *
 * @example
 * return answer(refuse('missing_signature', 'The X-Signature header is missing; the request is not signed.'));
 */
export function answer(refusal: Refusal): ReceiverResponse {
  const { fixed } = refusal as Partial<FixedRefusal>;
  if (fixed !== undefined) return fixed;
  const response = receiverResponse(refusal.code, refusal.message, refusal.extra);
  Object.assign(response.headers, refusal.headers); // the `Allow` of a 405; nothing when there are none
  return response;
}

/**
 * The answer to a message no handler takes: acknowledged, unhandled (its text names the message's kind).
 *
 * @example
 * return unhandledAnswer('track message');
 */
export function unhandledAnswer(what: string): ReceiverResponse {
  return receiverResponse('unhandled', `No handler for ${what}s; acknowledged.`, { handled: false });
}
