import type { WebhookMessage } from '../../messages/types.js';
import { beforeDeadline, DEADLINE_PASSED } from '../before-deadline.js';
import type { HandlerContext, MessageHandler } from '../options.js';
import type { ReceiveObservation } from '../../telemetry/telemetry.js';
import { DeadlineExceededError, type AcceptedMessage } from '../receiver.js';
import type { ReceiverResponse } from '../responses.js';
import type { ReceiverSetup } from '../setup.js';
import { andThen, isPending, type MaybePromise } from '../maybe-promise.js';
import { unhandledAnswer } from './answer.js';
import { enqueue } from './enqueue.js';

/**
 * The step that hands an accepted message on, by the receiver's mode: to the queue (`enqueue`), or
 * to its handler (`handle`, `acknowledge`); with no handler for it, it is acknowledged unhandled.
 *
 * @example
 * return handOff(setup, accepted, request.handler, 'track message');
 */
export function handOff<TExtra>(
  setup: ReceiverSetup<TExtra>,
  accepted: AcceptedMessage<TExtra>,
  handler: MessageHandler<WebhookMessage, TExtra> | undefined,
): MaybePromise<ReceiverResponse> {
  if (setup.enqueue !== undefined) return enqueue(setup, accepted, setup.enqueue);
  if (handler === undefined) {
    return andThen(accepted.settle('handled'), () => unhandledAnswer(setup.rules.describe(accepted.message)));
  }
  return runHandler(setup, accepted, handler);
}

/**
 * Runs a handler under the receiver's mode. `handle`: answers 200 once it returned (or its promise
 * resolved), 500 when it threw, or 503 when its promise is still pending at the deadline (counted
 * from arrival; its `signal` fires and it finishes in the background). A handler that returns at
 * once is answered at once: no timer, no wait. `acknowledge`: answers 200 at once and runs it in the
 * background, reporting a failure to `onError`. Either way the dedupe claim is settled by its outcome.
 *
 * @example
 * const answer = await runHandler(setup, accepted, (msg) => console.log(msg.type));
 */
export function runHandler<TExtra>(
  setup: ReceiverSetup<TExtra>,
  accepted: AcceptedMessage<TExtra>,
  handler: MessageHandler<WebhookMessage, TExtra>,
): MaybePromise<ReceiverResponse> {
  const { message, context } = accepted;
  return runUnderMode(setup, accepted, () => handler(message, context));
}

/**
 * What `runUnderMode` runs: an accepted message, or a batch whose elements settle their own claims
 * (its `message` is then undefined).
 *
 * @example
 * const target: HandOffTarget = { message: undefined, context: batch.context, settle: () => {}, abort: batch.abort };
 */
export interface HandOffTarget<TExtra> {
  readonly message: WebhookMessage | undefined;
  readonly context: HandlerContext<TExtra>;
  settle(outcome: 'handled' | 'failed'): MaybePromise<void>;
  abort(reason?: unknown): void;
  readonly observation?: ReceiveObservation | undefined;
}

/**
 * `runHandler`'s mode and deadline over any hand-off target: `work` is the handler's call, or a batch's
 * elements in order. Work that returns at once is answered at once (no timer, no wait).
 *
 * @example
 * return runUnderMode(setup, accepted, () => handler(accepted.message, accepted.context));
 */
export function runUnderMode<TExtra>(
  setup: ReceiverSetup<TExtra>,
  accepted: HandOffTarget<TExtra>,
  work: () => unknown,
): MaybePromise<ReceiverResponse> {
  const { message, context, observation } = accepted;
  const { onError, answers } = setup;
  const settle = (outcome: 'handled' | 'failed') => accepted.settle(outcome);
  const failed = (error: unknown, phase: 'handler' | 'background') =>
    // Stryker disable next-line StringLiteral: any outcome but 'handled' releases the claim
    andThen(settle('failed'), () => {
      onError(error, { message, dedupeKey: context.dedupeKey, phase });
      return answers.handlerFailed.fixed;
    });
  // With telemetry, the work runs inside the delivery's trace and is timed (always a promise);
  // in acknowledge mode it runs in the background (an async wrapper: a throw rejects).
  if (observation !== undefined || setup.mode === 'acknowledge') {
    const run = observation === undefined ? (async () => work())() : observation.handler(async () => work());
    if (setup.mode === 'acknowledge') {
      finishInBackground(setup, run, settle, (error) => failed(error, 'background'));
      return answers.acknowledged;
    }
    return untilDeadline(setup, accepted, run, failed);
  }
  let returned: unknown;
  try {
    returned = work();
  } catch (error) {
    return failed(error, 'handler');
  }
  if (isPending(returned)) return untilDeadline(setup, accepted, returned, failed);
  return andThen(settle('handled'), () => answers.handled);
}

/** A handler's promise, waited for until the deadline: 200, 500 when it rejected, 503 when still pending. */
function untilDeadline<TExtra>(
  setup: ReceiverSetup<TExtra>,
  accepted: HandOffTarget<TExtra>,
  run: PromiseLike<unknown>,
  failed: (error: unknown, phase: 'handler' | 'background') => MaybePromise<ReceiverResponse>,
): Promise<ReceiverResponse> {
  const { deadlineMs, answers } = setup;
  const settle = (outcome: 'handled' | 'failed') => accepted.settle(outcome);
  return beforeDeadline(run, accepted.context.receivedAt.getTime(), deadlineMs).then(
    (outcome) => {
      if (outcome !== DEADLINE_PASSED) return andThen(settle('handled'), () => answers.handled);
      accepted.abort(new DeadlineExceededError(deadlineMs));
      finishInBackground(setup, run, settle, (error) => failed(error, 'background'));
      return answers.handlerDeadline.fixed;
    },
    (error: unknown) => failed(error, 'handler'),
  );
}

/** Lets a handler finish after the answer: its claim settled by its outcome, a failure to `onError`. */
function finishInBackground<TExtra>(
  setup: ReceiverSetup<TExtra>,
  run: PromiseLike<unknown>,
  settle: (outcome: 'handled' | 'failed') => MaybePromise<void>,
  failed: (error: unknown) => unknown,
): void {
  setup.track(Promise.resolve(run).then(() => settle('handled'), failed));
}
