import type { ReceiveObservation } from '../telemetry/telemetry.js';
import type { WebhookMessage } from '../messages/types.js';
import type { HandlerContext } from './options.js';
import type { ReceiverResponse } from './responses.js';

/**
 * The outcome of `accept`: an answer to send now, or a verified message to hand to a handler.
 *
 * @example
 * const result: AcceptResult = await receiver.accept({ method: 'POST', headers, rawBody });
 * if (result.kind === 'response') return result.response;
 * return receiver.run(result, (msg) => console.log(msg.type));
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
       * the retry. With `telemetry`, it also ends the delivery's observation unless `run` did (`handled`
       * is reported as `ok`, `failed` as `handler_error`).
       */
      settle(outcome: 'handled' | 'failed'): Promise<void>;
      /** Fires the handler's `AbortSignal`. */
      abort(reason?: unknown): void;
      /**
       * This delivery's observation, when the receiver has `telemetry`: `run` times the handler under
       * it and reports the answer.
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
