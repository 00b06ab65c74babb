import type { WebhookMessage } from '../messages/types.js';
import type { AcceptResult, AcceptedBatch, AcceptedMessage } from './accepted-message.js';
import type { FrameworkAdapter } from './adapter-contract.js';
import type { MessageHandler, ReceiverInput } from './options.js';
import type { ReceiverResponse } from './responses.js';

export type { AcceptResult, AcceptedBatch, AcceptedMessage } from './accepted-message.js';

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
   * Runs `handler` for a message from `accept` exactly as `handle` runs the configured handlers:
   * under the mode and the deadline, settling the dedupe claim, reporting failures to `onError`.
   * `onViolation`, when given, runs instead for a message that broke the tracking plan (its context's
   * `violations`). Returns the answer (200, 500, or 503 at the deadline). For adapters whose "handler" is the rest
   * of the framework's chain (Express `next()`, Hono `await next()`, a Fastify route after a hook).
   * A batch: `handler` runs once per element, in order, each element's claim settled by its outcome.
   */
  run(
    accepted: AcceptedMessage<TExtra> | AcceptedBatch<TExtra>,
    handler: MessageHandler<WebhookMessage, TExtra>,
  ): Promise<ReceiverResponse>;
  /**
   * Runs this receiver over a framework through its adapter (the adapter contract): the checks that
   * need no body (405, 415, 413 before reading), the body read under the limit and deadline, the
   * steps, then the handlers' answer, or with `passThrough` the verified message handed to the
   * framework's next handler (`adapter.next`) under the deadline. Every entry goes this way: core's
   * node listener, `fetch`, `handle` and the Express, Fastify and Hono adapters.
   */
  serve<Call, Result>(
    adapter: FrameworkAdapter<Call, Result, TExtra>,
    passThrough?: boolean,
  ): (call: Call) => Promise<Result>;
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
