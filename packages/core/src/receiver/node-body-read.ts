// The body read of core's node listener, by callbacks (internal; `readNodeStreamWithin` wraps it in a
// promise for the adapters): the size limit, the deadline from arrival with one shared sweep timer,
// and the rest of an oversize body read and dropped.
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
 * `readNodeStreamWithin` with a callback instead of a promise (internal: core's node listener, whose
 * accept path then costs no promise and no microtask per step). `done` is called exactly once: with
 * the bytes, `'too_large'` (the rest is read and dropped), `'deadline'`, or a `NodeReadFailure`
 * holding what ended the request (the stream's error, or an `Error` when it closed before its body ended).
 *
 * @example
 * readNodeStreamThen(req, receiver.maxBodyBytes, receivedAt + receiver.deadlineMs, (read) => console.log(read));
 */
export function readNodeStreamThen(
  stream: NodeReadable,
  limit: number,
  deadlineAt: number,
  done: (read: Uint8Array | NodeBodyRefusal | NodeReadFailure) => void,
): void {
  const read = new PendingRead(stream, limit, deadlineAt, done);
  stream.on('data', read.onData);
  stream.on('end', read.onEnd);
  stream.on('error', read.onError);
  stream.on('close', read.onClose);
  if (deadlineAt !== Infinity) watch(read);
}

/**
 * Why `readNodeStreamThen` failed: the stream's error (any value, as emitted), or an `Error` when the
 * request closed before its body ended.
 *
 * @example
 * readNodeStreamThen(req, limit, Infinity, (read) => { if (read instanceof NodeReadFailure) console.warn(read.error); });
 */
export class NodeReadFailure {
  constructor(readonly error: unknown) {}
}

/**
 * One body read: its state and its four stream listeners. Made once per request; the listeners are
 * arrow functions on the instance (the stream calls them with itself as `this`).
 */
class PendingRead {
  chunks: Uint8Array[] | undefined = [];
  size = 0;
  /** Neighbours in the list of reads watched by the sweep (an intrusive list: no hashing per request). */
  prev: PendingRead | undefined = undefined;
  next: PendingRead | undefined = undefined;
  watched = false;

  constructor(
    readonly stream: NodeReadable,
    readonly limit: number,
    readonly deadlineAt: number,
    private done: ((read: Uint8Array | NodeBodyRefusal | NodeReadFailure) => void) | undefined,
  ) {}

  /** Stops listening and hands the outcome on, once. */
  finish(outcome: Uint8Array | NodeBodyRefusal | NodeReadFailure): void {
    const done = this.stop();
    if (done !== undefined) done(outcome);
  }

  /** Stops listening; returns the callback still to call (`undefined` when it was called already). */
  stop(): ((read: Uint8Array | NodeBodyRefusal | NodeReadFailure) => void) | undefined {
    const done = this.done;
    if (done === undefined) return undefined;
    this.done = undefined;
    this.chunks = undefined;
    if (this.watched) unwatch(this);
    const stream = this.stream;
    stream.removeListener('data', this.onData);
    stream.removeListener('end', this.onEnd);
    stream.removeListener('error', this.onError);
    stream.removeListener('close', this.onClose);
    return done;
  }

  readonly onData = (chunk: unknown): void => {
    const chunks = this.chunks;
    if (chunks === undefined) return;
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : (chunk as Uint8Array);
    this.size += bytes.byteLength;
    if (this.size > this.limit) {
      const done = this.stop();
      this.stream.resume(); // the rest is read and dropped
      if (done !== undefined) done('too_large');
      return;
    }
    chunks.push(bytes);
  };

  readonly onEnd = (): void => {
    const chunks = this.chunks;
    if (chunks !== undefined) this.finish(concatBytes(chunks, this.size));
  };

  readonly onError = (error: unknown): void => {
    this.finish(new NodeReadFailure(error));
  };

  readonly onClose = (): void => {
    this.finish(new NodeReadFailure(new Error('The request closed before its body ended.')));
  };
}

/**
 * Body reads under a deadline share one timer that sweeps every `SWEEP_MS`, instead of a timer per
 * request (setTimeout + clearTimeout cost more than the rest of reading a 1 KB body): a body still
 * arriving is stopped at most `SWEEP_MS` after its deadline, well inside the sender's 5 s. The reads
 * are kept in a doubly linked list through the reads themselves: adding and removing one costs a few
 * stores (a `Set` hashed every request object).
 */
const SWEEP_MS = 50;
let first: PendingRead | undefined;
let watchedCount = 0;
let sweeper: ReturnType<typeof setInterval> | undefined;

function watch(read: PendingRead): void {
  read.watched = true;
  read.next = first;
  if (first !== undefined) first.prev = read;
  first = read;
  watchedCount++;
  if (sweeper === undefined) {
    sweeper = setInterval(sweep, SWEEP_MS);
    (sweeper as { unref?: () => void }).unref?.();
  }
}

function unwatch(read: PendingRead): void {
  read.watched = false;
  if (read.prev !== undefined) read.prev.next = read.next;
  else first = read.next;
  if (read.next !== undefined) read.next.prev = read.prev;
  read.prev = undefined;
  read.next = undefined;
  watchedCount--;
}

function sweep(): void {
  const now = Date.now();
  let read = first;
  while (read !== undefined) {
    const next = read.next; // finish() unlinks `read`
    if (read.deadlineAt <= now) read.finish('deadline');
    read = next;
  }
  if (watchedCount === 0 && sweeper !== undefined) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}
