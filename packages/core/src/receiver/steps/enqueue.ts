import { beforeDeadline, DEADLINE_PASSED } from '../before-deadline.js';
import { dedupeKey, messageIdKey } from '../dedupe-key.js';
import type { EnqueueHandoff } from '../handoff.js';
import { DeadlineExceededError, type AcceptedMessage } from '../receiver.js';
import { RequestHandoff } from '../request-handoff.js';
import type { ReceiverResponse } from '../responses.js';
import type { ReceiverSetup } from '../setup.js';
import { answer } from './answer.js';
import { refuse } from './request.js';

/**
 * The hand-off of `enqueue` mode: gives the message to `enqueue` and answers 200 only once it
 * resolved. At the deadline or on its failure: 503 `queue_unavailable` and the dedupe claim released
 * (422 `message_unstorable` when it failed with a RangeError: too deep or too large to write out),
 * so the sender's retry is taken again (the handoff is keyed by the dedupe key: a store that lands
 * late is not stored twice). Without a dedupe store the key is made here: the queue is the dedupe.
 *
 * @example
 * return enqueue(setup, accepted, enqueueTo(queue));
 */
export async function enqueue<TExtra>(
  setup: ReceiverSetup<TExtra>,
  accepted: AcceptedMessage<TExtra>,
  store: EnqueueHandoff,
): Promise<ReceiverResponse> {
  const { message, context, signedBody } = accepted;
  const settle = (outcome: 'handled' | 'failed') => accepted.settle(outcome);
  const { deadlineMs } = setup;
  const key =
    context.dedupeKey ?? messageIdKey(message) ?? (await dedupeKey(message, signedBody ?? JSON.stringify(message)));
  const report = (error: unknown) => setup.onError(error, { message, dedupeKey: key, phase: 'enqueue' });
  const handoff = new RequestHandoff(
    message,
    key,
    signedBody,
    context.verification,
    context.receivedAt,
    context,
    setup.destination,
  );
  // An async wrapper: an `enqueue` that throws synchronously rejects like one that rejects.
  const { observation } = accepted;
  const stored =
    observation === undefined
      ? (async () => store(handoff))()
      : observation.enqueue(async (traceContext) => {
          handoff.traceContext = traceContext;
          return store(handoff);
        });
  const outcome = await beforeDeadline(
    stored.then(
      () => 'stored' as const,
      (error: unknown) => ({ error }),
    ),
    context.receivedAt.getTime(),
    deadlineMs,
  );
  if (outcome === 'stored') {
    await settle('handled');
    return setup.answers.stored;
  }
  if (outcome === DEADLINE_PASSED) {
    accepted.abort(new DeadlineExceededError(deadlineMs));
    report(new DeadlineExceededError(deadlineMs));
    // Whether it lands later or not, the sender retries and the dedupe key keeps it one job.
    stored.catch(report);
    // Stryker disable next-line StringLiteral: any outcome but 'handled' releases the claim
    await settle('failed');
    return answer(
      refuse('queue_unavailable', `The queue did not take the message within ${deadlineMs} ms; the sender will retry.`),
    );
  }
  report(outcome.error);
  // Stryker disable next-line StringLiteral: any outcome but 'handled' releases the claim
  await settle('failed');
  // A RangeError is the engine's, not the queue's: the message cannot be written out (JSON.stringify
  // recurses, so ~10,000 levels overflow the stack). Every retry would fail alike, so it is final.
  if (outcome.error instanceof RangeError)
    return answer(
      refuse(
        'message_unstorable',
        `The queue cannot store this message (${outcome.error.message}); a retry would fail the same way.`,
      ),
    );
  return answer(refuse('queue_unavailable', 'The queue refused the message; the sender will retry.'));
}
