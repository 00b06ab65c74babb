import { NodeReadFailure, readNodeStreamThen, type NodeBodyRefusal, type NodeReadable } from './node-body-read.js';

export type { NodeBodyRefusal, NodeReadable } from './node-body-read.js';

/**
 * Reads a Node request body with `data`/`end` events (cheaper than async iteration on a hot path):
 * the bytes, or `undefined` past `limit` bytes (the rest is then read and dropped, so the client
 * still gets the refusal rather than a reset). Rejects when the request errors or closes early.
 *
 * @example
 * const bytes = await readNodeStream(req, receiver.maxBodyBytes);
 * if (bytes === undefined) return writeNodeResponse(res, receiverResponse('payload_too_large', '…'));
 */
export function readNodeStream(stream: NodeReadable, limit: number): Promise<Uint8Array | undefined> {
  return readNodeStreamWithin(stream, limit, Infinity).then((read) => (read instanceof Uint8Array ? read : undefined));
}

/**
 * `readNodeStream` with a deadline: the bytes; `'too_large'` past `limit` bytes (the rest is read
 * and dropped); or `'deadline'` when the body is still arriving at `deadlineAt` (a `Date.now()`
 * time; the stream is left as it is, for the caller to answer and close the connection).
 *
 * @example
 * const read = await readNodeStreamWithin(req, receiver.maxBodyBytes, receivedAt + receiver.deadlineMs);
 * if (read === 'deadline') return writeNodeResponse(res, receiverResponse('deadline_exceeded', '…'));
 */
export function readNodeStreamWithin(
  stream: NodeReadable,
  limit: number,
  deadlineAt: number,
): Promise<Uint8Array | NodeBodyRefusal> {
  return new Promise<Uint8Array | NodeBodyRefusal>((resolve, reject) => {
    readNodeStreamThen(stream, limit, deadlineAt, (read) =>
      read instanceof NodeReadFailure ? reject(read.error) : resolve(read),
    );
  });
}
