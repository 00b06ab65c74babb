import type { FrameworkAdapter } from './adapter-contract.js';
import type { Receiver } from './receiver.js';
import { endUnreadBody, type UnreadBodyRequest, type UnreadBodyResponse } from './end-unread-body.js';
import { bodyAlreadyReadResponse } from './body-already-read.js';
import { BodyTooLargeError, readBody } from './read-body.js';
import { readNodeStreamWithin, type NodeReadable } from './read-node-stream.js';
import { answerHeaders, bodyDeadlineResponse, receiverResponse, type ReceiverResponse } from './responses.js';

/**
 * The parts of Node's `IncomingMessage` the listener uses.
 *
 * @example
 * import http from 'node:http';
 * http.createServer(async (req: NodeRequestLike, res: NodeResponseLike) => {
 *   const body = await readNodeBody(req, receiver);
 *   if (!(body instanceof Uint8Array)) return writeNodeResponse(res, body);
 *   writeNodeResponse(res, await receiver.handle({ method: req.method ?? 'POST', headers: req.headers, rawBody: body }));
 * });
 */
export interface NodeRequestLike extends AsyncIterable<Uint8Array | string> {
  method?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  /** Set by body parsers that ran before (Express, Connect). */
  body?: unknown;
  /** Stream methods used to read the body by events and to drop the rest of a refused one (present on `IncomingMessage`). */
  resume?(): unknown;
  on?(event: string, listener: (arg?: unknown) => void): unknown;
  once?(event: string, listener: () => void): unknown;
  removeListener?(event: string, listener: (arg?: unknown) => void): unknown;
  readableEnded?: boolean;
  complete?: boolean;
  socket?: { destroy(): unknown } | null;
}

/** The 413 answer: sent at once; the rest of the body is read and dropped after it (`endUnreadBody`). */
function tooLarge(limit: number): ReceiverResponse {
  return receiverResponse('payload_too_large', new BodyTooLargeError(limit).message);
}

/**
 * The parts of Node's `ServerResponse` the listener uses.
 *
 * @example
 * const res: NodeResponseLike = { writeHead: (status, headers) => console.log(status, headers), end: (body) => console.log(body) };
 * writeNodeResponse(res, receiverResponse('ok', 'Handled.')); // a stand-in response, for tests
 */
export interface NodeResponseLike {
  writeHead(status: number, headers: Record<string, string>): unknown;
  end(body?: string): unknown;
  headersSent?: boolean;
  writableFinished?: boolean;
  once?(event: string, listener: () => void): unknown;
}

/**
 * Writes a receiver's answer to a Node response. Given the request too, an answer sent before its
 * body ended (413, 415, 405, 503 at the deadline) first arranges for the rest of the body to be read
 * and dropped (`endUnreadBody`), so the client reads the answer instead of a connection reset.
 *
 * @example
 * writeNodeResponse(res, await receiver.handle(input), req);
 */
export function writeNodeResponse(res: NodeResponseLike, response: ReceiverResponse, req?: NodeRequestLike): void {
  if (res.headersSent) return;
  if (
    req !== undefined &&
    req.readableEnded !== true &&
    typeof req.on === 'function' &&
    typeof res.once === 'function'
  ) {
    endUnreadBody(req as UnreadBodyRequest, res as UnreadBodyResponse);
  }
  res.writeHead(response.status, answerHeaders(response));
  res.end(response.body);
}

/**
 * Reads a Node request's raw body under the receiver's limit and deadline: the bytes, or the answer
 * to send instead (413 over the limit, declared or counted; 503 when the body is still arriving
 * `deadlineMs` after `receivedAt`, the request's arrival). Write that answer with
 * `writeNodeResponse(res, answer, req)`, which reads and drops the rest of the body.
 *
 * @example
 * const receivedAt = Date.now();
 * const body = await readNodeBody(req, receiver, receivedAt);
 * if (!(body instanceof Uint8Array)) return writeNodeResponse(res, body, req);
 */
export async function readNodeBody(
  req: NodeRequestLike,
  receiver: Pick<Receiver, 'maxBodyBytes'> & Partial<Pick<Receiver, 'deadlineMs'>>,
  receivedAt: number = Date.now(),
): Promise<Uint8Array | ReceiverResponse> {
  const limit = receiver.maxBodyBytes;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return tooLarge(limit);
  if (typeof req.on === 'function' && typeof req.removeListener === 'function' && typeof req.resume === 'function') {
    const deadlineAt = receiver.deadlineMs === undefined ? Infinity : receivedAt + receiver.deadlineMs;
    const read = await readNodeStreamWithin(req as NodeReadable, limit, deadlineAt);
    if (read === 'too_large') return tooLarge(limit);
    if (read === 'deadline') return bodyDeadlineResponse(receiver.deadlineMs ?? 0);
    return read;
  }
  try {
    return await readBody(req, limit);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return tooLarge(limit);
    throw error;
  }
}

/** One `node:http` request and its response. */
interface NodeCall {
  req: NodeRequestLike;
  res: NodeResponseLike;
}

/** No extras: a node listener's handlers get the receiver's own context fields only. */
const NO_EXTRAS: Record<string, never> = Object.freeze({});

/** Core's node listener as an adapter: the body read off the request's stream, the answer written to `res`. */
const nodeAdapter: FrameworkAdapter<NodeCall, void, Record<string, never>> = {
  request: ({ req }) => ({ method: req.method ?? 'GET', headers: req.headers }),
  async readBody({ req }, limits) {
    // A stream read to its end before (a body parser): its bytes are gone, and no 'end' would come.
    if (req.readableEnded === true) return bodyAlreadyReadResponse();
    const body = await readNodeBody(req, limits, limits.receivedAt);
    return body instanceof Uint8Array ? { rawBody: body } : body;
  },
  context: () => NO_EXTRAS,
  writeAnswer: ({ req, res }, answer, early) => writeNodeResponse(res, answer, early ? req : undefined),
};

/**
 * A `node:http` request listener for a receiver: `http.createServer(toNodeListener(receiver))`.
 * The deadline counts from the request's arrival, reading the body included. The returned promise
 * settles once the answer is written (or handed to Node).
 *
 * @example
 * import http from 'node:http';
 * import { createReceiver, toNodeListener } from '@hookgate/core';
 * http.createServer(toNodeListener(createReceiver({ secret, on: { track: (m) => console.log(m.event) } }))).listen(3000);
 */
export function toNodeListener(receiver: Receiver): (req: NodeRequestLike, res: NodeResponseLike) => Promise<void> {
  const serve = receiver.serve(nodeAdapter);
  const failed = (req: NodeRequestLike, res: NodeResponseLike) =>
    writeNodeResponse(res, receiverResponse('handler_error', 'The receiver failed; the sender will retry.'), req);
  return (req, res) => serve({ req, res }).catch(() => failed(req, res));
}
