import type { AcceptedMessage } from './accepted-message.js';
import type { HeadersLike } from './headers.js';
import type { ReceiverInput } from './options.js';
import type { ReceiverResponse } from './responses.js';

/**
 * The body an adapter read: the raw bytes or text whenever the framework still has them, a value a
 * parser produced before, the framework's own JSON parser, and when the request arrived if the
 * framework read the body before the adapter ran (the deadline counts from it).
 *
 * @example
 * const body: AdapterBody = { rawBody: await readRaw(req) };
 */
export type AdapterBody = Pick<ReceiverInput, 'rawBody' | 'parsedBody' | 'parse' | 'receivedAt'>;

/**
 * What a framework adapter supplies to core (the adapter contract): how to see its request, read the
 * body under the receiver's limit and deadline, write an answer, and reach the framework's next
 * handler. `receiver.serve` (`createAdapterHandler`) runs the receiver over it, the same for every
 * framework and for core's own entries (the node listener, `fetch`, `handle`); an adapter holds no
 * protocol logic (statuses, signatures, deadlines are core's).
 *
 * @example
 * const adapter: FrameworkAdapter<{ req: IncomingMessage; res: ServerResponse }, void, { req: IncomingMessage }> = {
 *   request: ({ req }) => ({ method: req.method ?? 'GET', headers: req.headers }),
 *   readBody: async ({ req }, limits) => {
 *     const body = await readNodeBody(req, limits, limits.receivedAt);
 *     return body instanceof Uint8Array ? { rawBody: body } : body;
 *   },
 *   context: ({ req }) => ({ req }),
 *   writeAnswer: ({ req, res }, answer, early) => writeNodeResponse(res, answer, early ? req : undefined),
 * };
 */
export interface FrameworkAdapter<Call, Result, TExtra> {
  /** The request's method and headers. */
  request(call: Call): { method: string; headers: HeadersLike };
  /**
   * Reads the body under `limits.maxBodyBytes`, still arriving at most until `limits.receivedAt +
   * limits.deadlineMs`: the body, or the answer to send instead (413 over the limit, 503 at the deadline);
   * at once when the framework read it already, else a promise.
   */
  readBody(call: Call, limits: AdapterLimits): AdapterBody | ReceiverResponse | Promise<AdapterBody | ReceiverResponse>;
  /** What every handler's context gets from the framework (`{ req, res }`, `{ c }`). */
  context(call: Call): TExtra;
  /**
   * Writes an answer, unless the framework's route answered already. The answer is read-only (answers
   * that never change are made once per receiver); `answerHeaders(answer)` gives its headers with the
   * body's `content-length`. `early`: sent before the body
   * may have been read to its end (405, 415, 413, 503 while arriving): the rest is read and dropped
   * so the client reads the answer instead of a reset.
   */
  writeAnswer(call: Call, answer: ReceiverResponse, early: boolean): Result;
  /**
   * Pass-through use (no handlers given): hands the verified message to the framework's next handler
   * and resolves once that answered 2xx; rejects when it failed, answered otherwise, or the connection
   * closed. The receiver runs it as the handler: under the deadline, settling the dedupe claim.
   * Needed only by adapters served with `passThrough` (a framework with a next handler).
   */
  next?(call: Call, accepted: AcceptedMessage<TExtra>): Promise<void>;
}

/**
 * The receiver's limits for reading one request's body: its size limit, its deadline, and when it arrived.
 *
 * @example
 * const deadlineAt = limits.receivedAt + limits.deadlineMs;
 */
export interface AdapterLimits {
  maxBodyBytes: number;
  deadlineMs: number;
  /** `Date.now()` when the adapter got the request. */
  receivedAt: number;
}
