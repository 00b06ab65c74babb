import { concatBytes } from './read-body.js';

/**
 * The parts of a Node readable (an `IncomingMessage`) that `readNodeStream` uses.
 *
 * @example
 * const stream: NodeReadable = req; // an http.IncomingMessage fits
 */
export interface NodeReadable {
  on(event: string, listener: (arg?: unknown) => void): unknown;
  removeListener(event: string, listener: (arg?: unknown) => void): unknown;
  resume(): unknown;
}

/** After the I/O callbacks of this turn of the event loop (Node, Bun, Deno); elsewhere after this task. */
const afterPendingReads: (run: () => void) => unknown =
  typeof setImmediate === 'function' ? setImmediate : queueMicrotask;

/**
 * Why `readNodeStreamWithin` stopped before the body's end: over the size limit, or still arriving
 * at the deadline.
 *
 * @example
 * const read = await readNodeStreamWithin(req, limit, receivedAt + deadlineMs);
 * if (read === 'too_large') console.warn('413');
 */
export type NodeBodyRefusal = 'too_large' | 'deadline';

/**
 * Reads a Node request body with `data`/`end` events: the bytes, or `undefined` past `limit` bytes
 * (the rest is then read and dropped, so the client still gets the refusal rather than a reset).
 * Rejects when the request errors or closes early.
 *
 * @example
 * const bytes = await readNodeStream(req, receiver.maxBodyBytes);
 * if (bytes === undefined) return writeNodeResponse(res, receiverResponse('payload_too_large', '…'));
 */
export async function readNodeStream(stream: NodeReadable, limit: number): Promise<Uint8Array | undefined> {
  const read = await readNodeStreamWithin(stream, limit, Infinity);
  return read instanceof Uint8Array ? read : undefined;
}

/**
 * `readNodeStream` with a deadline: the bytes; `'too_large'` past `limit` bytes (the rest is read
 * and dropped); or `'deadline'` when the body is still arriving at `deadlineAt` (a `Date.now()`
 * time; the stream is left as it is, for the caller to answer and close the connection). A body that
 * ends without waiting on the network arms no timer.
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
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let finished = false;
    const onData = (chunk: unknown) => {
      const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : (chunk as Uint8Array);
      size += bytes.byteLength;
      if (size <= limit) return void chunks.push(bytes);
      finish(resolve, 'too_large');
      stream.resume(); // the rest is read and dropped
    };
    const onEnd = () => finish(resolve, concatBytes(chunks, size));
    const onError = (error: unknown) => finish(reject, error);
    const onClose = () => finish(reject, new Error('The request closed before its body ended.'));
    function finish<T>(settle: (value: T) => void, value: T): void {
      finished = true;
      clearTimeout(timer);
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onError);
      stream.removeListener('close', onClose);
      settle(value);
    }
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('close', onClose);
    // The deadline is armed only for a body still arriving once the packets that brought it are read:
    // one that came with its headers has ended by then (Node parses it after the 'request' event).
    if (deadlineAt !== Infinity) {
      afterPendingReads(() => {
        if (!finished) timer = setTimeout(() => finish(resolve, 'deadline'), Math.max(0, deadlineAt - Date.now()));
      });
    }
  });
}
