/**
 * What a framework adapter builds on: the adapter contract (`FrameworkAdapter`, run by
 * `createAdapterHandler`), what the receiver's `accept` gives and `run` takes (`AcceptResult`,
 * `AcceptedMessage`), options typed by destination (`ReceiverOptionsFor`), body reading under the
 * receiver's limit and deadline, answers written to Node responses, the option checks adapters share. Users import `@hookgate/core`; this entry is for
 * adapters (`@hookgate/express`, `@hookgate/fastify`, `@hookgate/hono`, your own).
 *
 * @packageDocumentation
 * @module @hookgate/core/adapter
 */

export {
  createAdapterHandler,
  type AdapterBody,
  type AdapterLimits,
  type FrameworkAdapter,
} from './adapter/contract.js';
export type { AcceptResult, AcceptedBatch, AcceptedMessage } from './receiver/receiver.js';
export type { ReceiverDestination, ReceiverOptionsFor } from './receiver/actions-options.js';
export { checkReceiverOptions } from './receiver/check-options.js';
export { RECEIVER_OPTION_NAMES } from './receiver/options.js';
export { isPassThrough } from './receiver/pass-through.js';
export { getHeader, type HeadersLike } from './receiver/headers.js';
export { BodyDeadlineError, BodyTooLargeError, readBody } from './receiver/read-body.js';
export {
  readNodeStream,
  readNodeStreamWithin,
  type NodeBodyRefusal,
  type NodeReadable,
} from './receiver/read-node-stream.js';
export {
  readNodeBody,
  writeNodeResponse,
  type NodeRequestLike,
  type NodeResponseLike,
} from './receiver/node-listener.js';
export {
  endUnreadBody,
  UNREAD_BODY_GRACE_MS,
  UNREAD_BODY_MAX_BYTES,
  type UnreadBodyRequest,
  type UnreadBodyResponse,
} from './receiver/end-unread-body.js';
export { answerHeaders, bodyDeadlineResponse, receiverResponse } from './receiver/responses.js';
export { nodeRouteOutcome, type NodeResponseEvents } from './receiver/route-outcome.js';
export { CLIENT_ERROR_LINGER_MS, type ClientErrorSocket } from './receiver/client-errors.js';
