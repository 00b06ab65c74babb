import type { WebhookMessage } from '../../messages/types.js';
import { beforeDeadline, DEADLINE_PASSED } from '../before-deadline.js';
import type { HandlerContext, MessageHandler } from '../options.js';
import type { ReceiveObservation } from '../../telemetry/telemetry.js';
import { DeadlineExceededError, type AcceptedMessage } from '../receiver.js';
import type { ReceiverResponse } from '../responses.js';
import type { ReceiverSetup } from '../setup.js';
import { answer, HANDED_OFF } from './answer.js';
import { enqueue } from './enqueue.js';
import { refuse } from './request.js';

/**
 * The step that hands an accepted message on, by the receiver's mode: to the queue (`enqueue`), or
 * to its handler (`handle`, `acknowledge`); with no handler for it, it is acknowledged unhandled.
 *
 * @example
 * return handOff(setup, accepted, request.handler, 'track message');
 */
export async function handOff<TExtra>(
  setup: ReceiverSetup<TExtra>,
  accepted: AcceptedMessage<TExtra>,
  handler: MessageHandler<WebhookMessage, TExtra> | undefined,
): Promise<ReceiverResponse> {
  if (setup.enqueue !== undefined) return enqueue(setup, accepted, setup.enqueue);
  if (handler === undefined) {
    await accepted.settle('handled');
    return HANDED_OFF.unhandled(setup.rules.describe(accepted.message));
  }
  return runHandler(setup, accepted, handler);
}

/**
 * Runs a handler under the receiver's mode. `handle`: waits for it until the deadline (counted from
 * arrival) and answers 200, 500 when it threw, or 503 when still running (its `signal` fires and it
 * finishes in the background). `acknowledge`: answers 200 at once and runs it in the background,
 * reporting a failure to `onError`. Either way the dedupe claim is settled by its outcome.
 *
 * @example
 * const answer = await runHandler(setup, accepted, (msg) => console.log(msg.type));
 */
export function runHandler<TExtra>(
  setup: ReceiverSetup<TExtra>,
  accepted: AcceptedMessage<TExtra>,
  handler: MessageHandler<WebhookMessage, TExtra>,
): Promise<ReceiverResponse> {
  const { message, context } = accepted;
  return runUnderMode(setup, accepted, () => handler(message, context));
}

/**
 * What `runUnderMode` runs: an accepted message, or a batch whose elements settle their own claims
 * (its `message` is then undefined).
 *
 * @example
 * const target: HandOffTarget = { message: undefined, context: batch.context, settle: async () => {}, abort: batch.abort };
 */
export interface HandOffTarget<TExtra> {
  readonly message: WebhookMessage | undefined;
  readonly context: HandlerContext<TExtra>;
  settle(outcome: 'handled' | 'failed'): Promise<void>;
  abort(reason?: unknown): void;
  readonly observation?: ReceiveObservation | undefined;
}

/**
 * `runHandler`'s mode and deadline over any hand-off target: `run` is the work (a handler's call, or
 * a batch's elements in order).
 *
 * @example
 * return runUnderMode(setup, accepted, () => handler(accepted.message, accepted.context));
 */
export async function runUnderMode<TExtra>(
  setup: ReceiverSetup<TExtra>,
  accepted: HandOffTarget<TExtra>,
  work: () => unknown,
): Promise<ReceiverResponse> {
  const { message, context } = accepted;
  const { deadlineMs, onError } = setup;
  const settle = (outcome: 'handled' | 'failed') => accepted.settle(outcome);
  // An async wrapper: a handler that throws synchronously rejects like one that rejects. With
  // telemetry, the handler runs inside the delivery's trace and is timed.
  const { observation } = accepted;
  const run = observation === undefined ? (async () => work())() : observation.handler(async () => work());
  const finishInBackground = () =>
    setup.track(
      run.then(
        () => settle('handled'),
        async (error: unknown) => {
          // Stryker disable next-line StringLiteral: any outcome but 'handled' releases the claim
          await settle('failed');
          onError(error, { message, dedupeKey: context.dedupeKey, phase: 'background' });
        },
      ),
    );
  if (setup.mode === 'acknowledge') {
    finishInBackground();
    return HANDED_OFF.acknowledged();
  }
  const outcome = await beforeDeadline(
    run.then(
      () => 'ok' as const,
      (error: unknown) => ({ error }),
    ),
    context.receivedAt.getTime(),
    deadlineMs,
  );
  if (outcome === 'ok') {
    await settle('handled');
    return HANDED_OFF.handled();
  }
  if (outcome === DEADLINE_PASSED) {
    accepted.abort(new DeadlineExceededError(deadlineMs));
    finishInBackground();
    return answer(
      refuse('deadline_exceeded', `The handler did not finish within ${deadlineMs} ms; the sender will retry.`),
    );
  }
  // Stryker disable next-line StringLiteral: any outcome but 'handled' releases the claim
  await settle('failed');
  onError(outcome.error, { message, dedupeKey: context.dedupeKey, phase: 'handler' });
  return answer(refuse('handler_error', 'The handler failed; the sender will retry.'));
}
