import { receiverResponse, type ReceiverResponse } from '../responses.js';
import type { Refusal } from './request.js';

/**
 * The last step: the receiver's JSON answer for a refusal of any step (status from the code, the
 * message, extra fields and headers).
 *
 * @example
 * return answer(refuse('missing_signature', 'The X-Signature header is missing; the request is not signed.'));
 */
export function answer(refusal: Refusal): ReceiverResponse {
  const response = receiverResponse(refusal.code, refusal.message, refusal.extra);
  Object.assign(response.headers, refusal.headers); // the `Allow` of a 405; nothing when there are none
  return response;
}

/**
 * The answers of a message handed off: handled, acknowledged (handling in the background), stored in
 * the queue, or acknowledged with no handler for it.
 *
 * @example
 * return HANDED_OFF.handled();
 */
export const HANDED_OFF = {
  handled: (): ReceiverResponse => receiverResponse('ok', 'Handled.'),
  acknowledged: (): ReceiverResponse =>
    receiverResponse('ok', 'Verified; handling in the background.', { acknowledged: true }),
  stored: (): ReceiverResponse => receiverResponse('ok', 'Stored in the queue.', { queued: true }),
  unhandled: (what: string): ReceiverResponse =>
    receiverResponse('unhandled', `No handler for ${what}s; acknowledged.`, { handled: false }),
};
