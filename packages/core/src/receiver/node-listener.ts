import type { Receiver } from './create-receiver.js';
import { BodyTooLargeError, readBody } from './read-body.js';
import { receiverResponse, type ReceiverResponse } from './responses.js';

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
  /** Stream methods used to discard the rest of a body over the limit (present on `IncomingMessage`). */
  resume?(): unknown;
  once?(event: string, listener: () => void): unknown;
  removeListener?(event: string, listener: () => void): unknown;
  readableEnded?: boolean;
}

/** How long a body over the limit is read and thrown away before the 413 goes out. */
const DISCARD_WAIT_MS = 1000;

/**
 * Reads and drops the rest of a request body (bounded in time), so that the client, still sending,
 * reads the 413 instead of a connection reset.
 */
function discardRest(req: NodeRequestLike): Promise<void> {
  if (req.readableEnded || typeof req.resume !== 'function' || typeof req.once !== 'function') return Promise.resolve();
  return new Promise<void>((resolve) => {
    const events = ['end', 'close', 'error'] as const;
    const done = () => {
      clearTimeout(timer);
      for (const e of events) req.removeListener?.(e, done);
      resolve();
    };
    const timer = setTimeout(done, DISCARD_WAIT_MS);
    for (const e of events) req.once!(e, done);
    req.resume!();
  });
}

/** The 413 answer for Node: the connection is closed after it, since the body was not read to its end. */
function tooLarge(message: string): ReceiverResponse {
  const response = receiverResponse('payload_too_large', message);
  return { ...response, headers: { ...response.headers, connection: 'close' } };
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
}

/**
 * Writes a receiver's answer to a Node response.
 *
 * @example
 * writeNodeResponse(res, await receiver.handle(input));
 */
export function writeNodeResponse(res: NodeResponseLike, response: ReceiverResponse): void {
  if (res.headersSent) return;
  res.writeHead(response.status, { ...response.headers, 'content-length': String(byteLength(response.body)) });
  res.end(response.body);
}

function byteLength(s: string): number {
  return new TextEncoder().encode(s).byteLength;
}

/**
 * Reads a Node request's raw body under the receiver's limit: the bytes, or the 413 answer.
 *
 * @example
 * const body = await readNodeBody(req, receiver);
 * if ('status' in body) return writeNodeResponse(res, body);
 */
export async function readNodeBody(req: NodeRequestLike, receiver: Pick<Receiver, 'maxBodyBytes'>): Promise<Uint8Array | ReceiverResponse> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > receiver.maxBodyBytes) {
    await discardRest(req);
    return tooLarge(new BodyTooLargeError(receiver.maxBodyBytes).message);
  }
  try {
    return await readBody(req, receiver.maxBodyBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      await discardRest(req);
      return tooLarge(error.message);
    }
    throw error;
  }
}

/**
 * A `node:http` request listener for a receiver: `http.createServer(toNodeListener(receiver))`.
 *
 * @example
 * import http from 'node:http';
 * import { createReceiver, toNodeListener } from '@hookgate/core';
 * http.createServer(toNodeListener(createReceiver({ secret, on: { track: (m) => console.log(m.event) } }))).listen(3000);
 */
export function toNodeListener(receiver: Receiver): (req: NodeRequestLike, res: NodeResponseLike) => Promise<void> {
  return async (req, res) => {
    const method = req.method ?? 'GET';
    try {
      if (method !== 'POST') {
        writeNodeResponse(res, await receiver.handle({ method, headers: req.headers }));
        return;
      }
      const body = await readNodeBody(req, receiver);
      if (!(body instanceof Uint8Array)) return writeNodeResponse(res, body);
      writeNodeResponse(res, await receiver.handle({ method, headers: req.headers, rawBody: body }));
    } catch {
      writeNodeResponse(res, receiverResponse('handler_error', 'The receiver failed; the sender will retry.'));
    }
  };
}
