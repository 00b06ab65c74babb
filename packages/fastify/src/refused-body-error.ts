import type { ReceiverResponse } from '@hookgate/core';

/**
 * Raised by the raw-body parser when it refuses a body before its end (413 over the limit, 503 still
 * arriving at the deadline), carrying the receiver's answer; the error handlers send that answer.
 *
 * @example
 * scope.setErrorHandler((error, request, reply) =>
 *   sendAnswer(reply, error instanceof RefusedBodyError ? error.answer : answerForFastifyError(error)));
 */
export class RefusedBodyError extends Error {
  override readonly name = 'RefusedBodyError';
  readonly statusCode: number;
  constructor(readonly answer: ReceiverResponse) {
    super(JSON.parse(answer.body).message as string);
    this.statusCode = answer.status;
  }
}
