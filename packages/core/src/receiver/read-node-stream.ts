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
export function readNodeStreamWithin(stream: NodeReadable, limit: number, deadlineAt: number): Promise<Uint8Array | NodeBodyRefusal> {
  return new Promise<Uint8Array | NodeBodyRefusal>((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    let pending: PendingRead | undefined;
    const cleanup = () => {
      if (pending !== undefined) unwatch(pending);
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onError);
      stream.removeListener('close', onClose);
    };
    const onData = (chunk: unknown) => {
      const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : (chunk as Uint8Array);
      size += bytes.byteLength;
      if (size > limit) {
        cleanup();
        stream.resume();
        resolve('too_large');
        return;
      }
      chunks.push(bytes);
    };
    const onEnd = () => {
      cleanup();
      resolve(concatBytes(chunks, size));
    };
    const onError = (error: unknown) => {
      cleanup();
      reject(error);
    };
    const onClose = () => {
      cleanup();
      reject(new Error('The request closed before its body ended.'));
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('close', onClose);
    if (deadlineAt !== Infinity) {
      pending = {
        deadlineAt,
        expire: () => {
          cleanup();
          resolve('deadline');
        },
      };
      watch(pending);
    }
  });
}

/** A body read under a deadline, watched by the shared sweep. */
interface PendingRead {
  deadlineAt: number;
  expire(): void;
}

/**
 * Body reads under a deadline share one timer that sweeps every `SWEEP_MS`, instead of a timer per
 * request (setTimeout + clearTimeout cost more than the rest of reading a 1 KB body): a body still
 * arriving is stopped at most `SWEEP_MS` after its deadline, well inside the sender's 5 s.
 */
const SWEEP_MS = 50;
const watched = new Set<PendingRead>();
let sweeper: ReturnType<typeof setInterval> | undefined;

function watch(read: PendingRead): void {
  watched.add(read);
  if (sweeper === undefined) {
    sweeper = setInterval(sweep, SWEEP_MS);
    (sweeper as { unref?: () => void }).unref?.();
  }
}

function unwatch(read: PendingRead): void {
  watched.delete(read);
}

function sweep(): void {
  const now = Date.now();
  for (const read of watched) if (read.deadlineAt <= now) read.expire();
  if (watched.size === 0 && sweeper !== undefined) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}
