import { type ReceiverResponse } from '@hookgate/core';
import { receiverResponse } from '@hookgate/core/adapter';
import { RefusedBodyError } from './refused-body-error.js';

/**
 * Maps an error Fastify raised before the handler (body over `bodyLimit`, bad JSON, prototype
 * poisoning, unsupported media type) to the receiver's answer of the same status (413, 400, 415);
 * anything else is the receiver's 500 (no stack trace; the sender retries). A `RefusedBodyError` from
 * the raw-body parser carries its own answer (413, or 503 at the deadline).
 *
 * @example
 * scope.setErrorHandler((error, request, reply) => sendAnswer(reply, answerForFastifyError(error)));
 */
export function answerForFastifyError(error: { statusCode?: number; message?: string }): ReceiverResponse {
  if (error instanceof RefusedBodyError) return error.answer;
  const detail = typeof error.message === 'string' ? error.message : 'The request was refused.';
  switch (error.statusCode) {
    case 413:
      return receiverResponse('payload_too_large', detail);
    case 415:
      return receiverResponse('unsupported_media_type', detail);
    case 400:
      return receiverResponse('invalid_json', detail);
    default:
      return receiverResponse('handler_error', 'The receiver failed; the sender will retry.');
  }
}
