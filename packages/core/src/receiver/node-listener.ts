import type { Receiver } from './create-receiver.js';
import { BodyTooLargeError, readBody } from './read-body.js';
import { receiverResponse, type ReceiverResponse } from './responses.js';

/** The parts of Node's `IncomingMessage` the listener uses. */
export interface NodeRequestLike extends AsyncIterable<Uint8Array | string> {
  method?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  /** Set by body parsers that ran before (Express, Connect). */
  body?: unknown;
}

/** The parts of Node's `ServerResponse` the listener uses. */
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
  try {
    return await readBody(req, receiver.maxBodyBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return receiverResponse('payload_too_large', error.message);
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
