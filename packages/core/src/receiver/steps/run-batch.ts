import type { WebhookMessage } from '../../messages/types.js';
import type { AcceptedBatch } from '../accepted-message.js';
import type { MessageHandler } from '../options.js';
import type { ReceiverResponse } from '../responses.js';
import type { ReceiverSetup } from '../setup.js';
import type { MaybePromise } from '../maybe-promise.js';
import { runUnderMode } from './hand-off.js';

/**
 * Runs a batch's new elements in order under the receiver's mode and deadline, one answer for the
 * batch: each element's handler (`handlerOf`), each element's claim settled by its own outcome. After
 * the deadline (503 answered) the elements not yet run are released for the sender's retry; one
 * element's failure does not stop the next, and the batch answers 500 (handled elements are skipped
 * on the retry).
 *
 * @example
 * return runBatch(setup, batch, (element, i) => handlers[i]);
 */
export function runBatch<TExtra>(
  setup: ReceiverSetup<TExtra>,
  batch: AcceptedBatch<TExtra>,
  handlerOf: (index: number) => MessageHandler<WebhookMessage, TExtra> | undefined,
): MaybePromise<ReceiverResponse> {
  let aborted = false;
  const runElements = async () => {
    const errors: unknown[] = [];
    for (const [index, element] of batch.elements.entries()) {
      if (aborted) {
        // Stryker disable next-line StringLiteral: any outcome but 'handled' releases the claim
        await element.settle('failed');
        continue;
      }
      try {
        await handlerOf(index)?.(element.message, element.context);
        await element.settle('handled');
      } catch (error) {
        // Stryker disable next-line StringLiteral: any outcome but 'handled' releases the claim
        await element.settle('failed');
        errors.push(error);
      }
    }
    if (errors.length > 1) {
      throw new AggregateError(
        errors,
        `${errors.length} batch elements failed; the sender will retry the batch (handled elements are skipped).`,
      );
    }
    if (errors.length === 1) throw errors[0];
  };
  const target = {
    message: undefined,
    context: batch.context,
    observation: batch.observation,
    // Each element settles its own claim as it runs.
    settle: () => Promise.resolve(),
    abort(reason?: unknown) {
      aborted = true;
      batch.abort(reason);
    },
  };
  return runUnderMode(setup, target, runElements);
}
