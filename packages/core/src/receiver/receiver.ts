import type { WebhookMessage } from '../messages/types.js';
import type { HandlerContext, MessageHandler, ReceiverInput } from './options.js';
import type { ReceiverResponse } from './responses.js';
import type { ReceiveObservation } from '../telemetry/telemetry.js';

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
      /** Records the handler's outcome in the dedupe store: `handled` remembers it, `failed` frees it for the retry. */
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

/**
 * A runtime-neutral webhook receiver: verifies, validates, dedupes, runs handlers, answers.
 *
 * @example
 * const receiver: Receiver = createReceiver({ secret, onMessage: (msg) => console.log(msg.type) });
 * Bun.serve({ port: 3000, fetch: (request) => receiver.fetch(request) });
 * process.on('SIGTERM', () => void receiver.drain().then(() => process.exit(0)));
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}`: no extras (the identity of `&`)
export interface Receiver<TExtra = {}> {
  /** Runs the whole status table over one request and returns the answer. */
  handle(input: ReceiverInput<TExtra>): Promise<ReceiverResponse>;
  /** Verification, validation and dedupe only; for adapters that hand the message to their own chain. */
  accept(input: ReceiverInput<TExtra>): Promise<AcceptResult<TExtra>>;
  /**
   * The checks that need no body (method, content type, declared length): the answer to send at
   * once, or `undefined` to go on and read the body. Lets an adapter skip reading bodies it refuses.
   */
  precheck(method: string, headers: ReceiverInput['headers']): ReceiverResponse | undefined;
  /**
   * For adapters: reports an answer made while reading the body (413 over the limit, 503 still
   * arriving at the deadline, 500 already read) to the receiver's `telemetry`, and returns it.
   * `receivedAt`: `Date.now()` at the request's arrival.
   */
  reportAnswer(answer: ReceiverResponse, receivedAt?: number): ReceiverResponse;
  /**
   * Runs `handler` for a message from `accept` exactly as `handle` runs the configured handlers:
   * under the mode and the deadline, settling the dedupe claim, reporting failures to `onError`.
   * `onViolation`, when given, runs instead for a message that broke the tracking plan (its context's
   * `violations`). Returns the answer (200, 500, or 503 at the deadline). For adapters whose "handler" is the rest
   * of the framework's chain (Express `next()`, Hono `await next()`, a Fastify route after a hook).
   */
  run(accepted: AcceptedMessage<TExtra>, handler: MessageHandler<WebhookMessage, TExtra>): Promise<ReceiverResponse>;
  /** A Fetch handler: `Bun.serve({ fetch: receiver.fetch })`, `Deno.serve(receiver.fetch)`, Workers. */
  fetch(request: Request, context?: TExtra): Promise<Response>;
  /** Resolves when every handler still running in the background has finished (for shutdown). */
  drain(): Promise<void>;
  readonly maxBodyBytes: number;
  readonly deadlineMs: number;
  /** `enqueue` when the `enqueue` option is given (a durable handoff instead of handlers). */
  readonly mode: 'handle' | 'acknowledge' | 'enqueue';
}

/**
 * Thrown into a handler's `AbortSignal` at the deadline.
 *
 * @example
 * const onTrack: MessageHandler<TrackMessage> = async (msg, { signal }) => {
 *   signal.addEventListener('abort', () => {
 *     if (signal.reason instanceof DeadlineExceededError) console.warn(`${msg.event}: stopped after ${signal.reason.deadlineMs} ms`);
 *   });
 * };
 */
export class DeadlineExceededError extends Error {
  override readonly name = 'DeadlineExceededError';
  constructor(readonly deadlineMs: number) {
    super(`The handler did not finish within ${deadlineMs} ms; the sender was answered 503 and will retry.`);
  }
}
