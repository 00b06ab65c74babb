import type { ReceiveObservation } from '../telemetry/telemetry.js';
import type { WebhookMessage } from '../messages/types.js';
import type { BatchElementInfo } from './actions-options.js';
import type { HandlerContext } from './options.js';
import type { ReceiverResponse } from './responses.js';

/**
 * The outcome of `accept`: an answer to send now, a verified message to hand to a handler, or a
 * verified Webhooks (Actions) batch (`insecureAcceptBatches`) whose new elements are each such a message.
 *
 * @example
 * const result: AcceptResult = await receiver.accept({ method: 'POST', headers, rawBody });
 * if (result.kind === 'response') return result.response;
 * return receiver.run(result, (msg) => console.log(msg.type)); // a batch: once per new element
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}`: no extras (the identity of `&`)
export type AcceptResult<TExtra = {}> =
  | { kind: 'response'; response: ReceiverResponse }
  | {
      kind: 'message';
      message: WebhookMessage;
      /**
       * The exact text or bytes the signature matched (the raw body, or the re-serialized form that
       * matched); `undefined` when verification is off. Hand these on, never other bytes of the request.
       */
      signedBody: string | Uint8Array | undefined;
      context: HandlerContext<TExtra>;
      /**
       * Records the handler's outcome in the dedupe store: `handled` remembers it, `failed` frees it for
       * the retry. A promise when the store answers asynchronously (`await` it either way). With `telemetry`,
       * it also ends the delivery's observation unless `run` did (`handled` is reported as `ok`, `failed` as
       * `handler_error`).
       */
      settle(outcome: 'handled' | 'failed'): void | Promise<void>;
      /** Fires the handler's `AbortSignal`. */
      abort(reason?: unknown): void;
      /**
       * This delivery's observation, when the receiver has `telemetry`: `run` times the handler under
       * it and reports the answer.
       */
      observation?: ReceiveObservation;
    }
  | {
      kind: 'batch';
      /**
       * The batch's elements not handled before, in order, each with its own context (`ctx.batch`),
       * dedupe claim and `settle`. `run(batch, handler)` runs `handler` once per element.
       */
      elements: readonly AcceptedMessage<TExtra & { batch: BatchElementInfo }>[];
      /** What the signature matched: the first element's `JSON.stringify`; `undefined` for an unsigned batch. */
      signedBody: string | undefined;
      /** The batch's own context (no dedupe key: each element has its own). */
      context: HandlerContext<TExtra>;
      /** Fires every element's `AbortSignal`. */
      abort(reason?: unknown): void;
      /**
       * This delivery's observation, when the receiver has `telemetry`: `run` reports the answer, or
       * the last element's `settle` does.
       */
      observation?: ReceiveObservation;
    };

/**
 * A verified message that `accept` handed over, to run with `run` (or settle by hand).
 *
 * @example
 * async function enqueue(accepted: AcceptedMessage) {
 *   try { await queue.push(accepted.message); await accepted.settle('handled'); }
 *   catch (error) { await accepted.settle('failed'); throw error; }
 * }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}`: no extras (the identity of `&`)
export type AcceptedMessage<TExtra = {}> = Extract<AcceptResult<TExtra>, { kind: 'message' }>;

/**
 * A verified Webhooks (Actions) batch that `accept` handed over: run it with `run` (each element in
 * order), or settle each element by hand.
 *
 * @example
 * async function enqueueAll(batch: AcceptedBatch) {
 *   for (const element of batch.elements) {
 *     await queue.push(element.message);
 *     await element.settle('handled');
 *   }
 * }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}`: no extras (the identity of `&`)
export type AcceptedBatch<TExtra = {}> = Extract<AcceptResult<TExtra>, { kind: 'batch' }>;
