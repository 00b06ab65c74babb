// The answers whose bytes never change for a receiver, made once when it is created: the hand-off's
// 200s and the usual refusals. Each request writes one of these as it is, instead of building the
// same status, headers, length and JSON text again.
import { FixedAnswer, receiverResponse, type ReceiverCode } from './responses.js';
import type { Refusal } from './steps/request.js';

/**
 * A refusal whose answer is made already (internal): `answer` hands out its `fixed` answer.
 *
 * @example
 * const refusal = fixedRefusal('in_flight', 'The same message is being handled right now; the sender will retry.');
 * answer(refusal) === refusal.fixed; // true
 */
export interface FixedRefusal extends Refusal {
  readonly fixed: FixedAnswer;
}

/**
 * A refusal and its answer, made once.
 *
 * @example
 * const duplicate = fixedRefusal('duplicate', 'Already handled; not run again.', { duplicate: true });
 */
export function fixedRefusal(code: ReceiverCode, message: string, extra?: Record<string, unknown>): FixedRefusal {
  return Object.freeze({ code, message, extra, fixed: new FixedAnswer(receiverResponse(code, message, extra)) });
}

/**
 * A receiver's answers made once (internal): what the hand-off answers, and the refusals whose text
 * does not depend on the request.
 *
 * @example
 * const answers = fixedAnswers(4000);
 * res.writeHead(answers.handled.status, answers.handled.wireHeaders).end(answers.handled.body);
 */
export interface FixedAnswers {
  readonly handled: FixedAnswer;
  readonly acknowledged: FixedAnswer;
  readonly stored: FixedAnswer;
  readonly missingSignature: FixedRefusal;
  /** The usual 401: a well-formed signature that matches the raw bytes under no secret. */
  readonly rawMismatch: FixedRefusal;
  readonly duplicate: FixedRefusal;
  readonly inFlight: FixedRefusal;
  readonly storeUnavailable: FixedRefusal;
  readonly handlerFailed: FixedRefusal;
  readonly handlerDeadline: FixedRefusal;
}

/**
 * Makes a receiver's fixed answers; `deadlineMs` is named in the 503 of a handler still running.
 *
 * @example
 * const answers = fixedAnswers(setup.deadlineMs);
 */
export function fixedAnswers(deadlineMs: number, rawMismatchMessage: string): FixedAnswers {
  return Object.freeze({
    handled: new FixedAnswer(receiverResponse('ok', 'Handled.')),
    acknowledged: new FixedAnswer(
      receiverResponse('ok', 'Verified; handling in the background.', { acknowledged: true }),
    ),
    stored: new FixedAnswer(receiverResponse('ok', 'Stored in the queue.', { queued: true })),
    missingSignature: fixedRefusal(
      'missing_signature',
      'The X-Signature header is missing; the request is not signed.',
    ),
    rawMismatch: fixedRefusal('invalid_signature', rawMismatchMessage),
    duplicate: fixedRefusal('duplicate', 'Already handled; not run again.', { duplicate: true }),
    inFlight: fixedRefusal('in_flight', 'The same message is being handled right now; the sender will retry.'),
    storeUnavailable: fixedRefusal('store_unavailable', 'The dedupe store is unavailable; the sender will retry.'),
    handlerFailed: fixedRefusal('handler_error', 'The handler failed; the sender will retry.'),
    handlerDeadline: fixedRefusal(
      'deadline_exceeded',
      `The handler did not finish within ${deadlineMs} ms; the sender will retry.`,
    ),
  });
}
