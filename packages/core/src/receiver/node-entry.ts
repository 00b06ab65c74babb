// Internal (not exported from the package): the entry core's node listener uses to hand a read body
// to its receiver without going through the public `handle` again, and the answers it writes with
// headers made once.
import type { HeadersLike } from './headers.js';
import { fixedResponse, type ReceiverResponse } from './responses.js';
import { utf8ByteLength } from './utf8-length.js';

/**
 * The key of a receiver's node entry (see `NodeEntry`).
 *
 * @example
 * const entry = (receiver as Partial<NodeEntry>)[NODE_ENTRY];
 */
export const NODE_ENTRY = Symbol('hookgate.nodeEntry');

/**
 * A receiver made by `createReceiver` has the node entry (not enumerable): its own `handle` and
 * `precheck`, for the listener to check that the receiver it was given still uses them, and
 * `handleBody(method, headers, rawBody, receivedAt)`, what `handle` runs once `precheck` passed and
 * the body was read under the limit (the same checks, answers and handlers), synchronous when nothing
 * has to be awaited.
 *
 * @example
 * const entry = (receiver as Partial<NodeEntry>)[NODE_ENTRY];
 * if (entry && entry.handle === receiver.handle) entry.handleBody('POST', req.headers, body, receivedAt);
 */
export interface NodeEntry {
  readonly [NODE_ENTRY]: {
    /** Compared by identity only. */
    readonly handle: unknown;
    /** Compared by identity only. */
    readonly precheck: unknown;
    handleBody(
      method: string,
      headers: HeadersLike,
      rawBody: Uint8Array,
      receivedAt: number,
    ): ReceiverResponse | Promise<ReceiverResponse>;
  };
}

/**
 * The "Handled." answer (200) of a handler that finished synchronously with nothing to settle, shared:
 * only the node listener receives it, and only to write it (the public `handle` and `run` answer a
 * fresh copy, whose headers a caller may change).
 *
 * @example
 * if (answer === HANDLED) res.writeHead(200, sharedWireHeaders(answer)).end(HANDLED.body);
 */
export const HANDLED: ReceiverResponse = fixedResponse('ok', 'Handled.');

/**
 * The "Stored in the queue." answer (200) of `enqueue` mode without a dedupe store, shared like
 * `HANDLED`: only the node listener receives it.
 *
 * @example
 * if (answer === STORED) res.writeHead(200, sharedWireHeaders(answer)).end(STORED.body);
 */
export const STORED: ReceiverResponse = fixedResponse('ok', 'Stored in the queue.', { queued: true });

const wire = (answer: ReceiverResponse) => ({
  ...answer.headers,
  'content-length': String(utf8ByteLength(answer.body)),
});
const SHARED_WIRE_HEADERS = new Map<ReceiverResponse, Record<string, string>>([
  [HANDLED, wire(HANDLED)],
  [STORED, wire(STORED)],
]);

/**
 * The headers of a shared answer (`HANDLED`, `STORED`) as written, Content-Length included, made once
 * (Node's `writeHead` only reads them); `undefined` for any other answer. Writing the shared answers
 * this way measured 6–10 µs less CPU per request than making their headers per request.
 *
 * @example
 * const headers = sharedWireHeaders(answer);
 * if (headers) res.writeHead(answer.status, headers).end(answer.body);
 */
export function sharedWireHeaders(answer: ReceiverResponse): Record<string, string> | undefined {
  return SHARED_WIRE_HEADERS.get(answer);
}
