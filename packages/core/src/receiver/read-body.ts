/**
 * Thrown by `readBody` when a body exceeds the limit; the receiver answers 413.
 *
 * @example
 * try { await readBody(request.body, 1_000_000); }
 * catch (e) { if (e instanceof BodyTooLargeError) console.warn(`over ${e.limit} bytes: answer 413`); }
 */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
  constructor(readonly limit: number) {
    super(`The request body is larger than the limit of ${limit} bytes.`);
  }
}

/**
 * Thrown by `readBody` when the body is still arriving at its deadline; the receiver answers 503.
 *
 * @example
 * try { await readBody(request.body, 1_000_000, receivedAt + 4000); }
 * catch (e) { if (e instanceof BodyDeadlineError) console.warn('too slow: answer 503'); }
 */
export class BodyDeadlineError extends Error {
  override readonly name = 'BodyDeadlineError';
  constructor() {
    super('The body was still arriving at the deadline.');
  }
}

/**
 * Reads a body stream (a Node `IncomingMessage`, a Fetch `ReadableStream`, any async iterable of
 * byte chunks) into one `Uint8Array`, stopping with `BodyTooLargeError` past `limit` bytes. Chunks are
 * joined as bytes, never decoded one by one, so multibyte characters split across chunks survive.
 * With `deadlineAt` (a `Date.now()` time), a body still arriving then stops with `BodyDeadlineError`
 * (a Fetch stream is cancelled).
 *
 * @example
 * const raw = await readBody(req, receiver.maxBodyBytes); // Node http
 * const raw = await readBody(request.body!, 1_000_000);  // Fetch
 */
export async function readBody(
  source: AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array> | null | undefined,
  limit: number,
  deadlineAt: number = Infinity,
): Promise<Uint8Array> {
  if (!source) return new Uint8Array(0);
  if (deadlineAt !== Infinity) return readBodyWithin(source, limit, deadlineAt);
  const chunks: Uint8Array[] = [];
  let size = 0;
  // A Node stream is read through `iterator({ destroyOnReturn: false })`: stopping at the limit must
  // not destroy the socket, or the client sees a reset instead of the 413 (see readNodeBody).
  const nodeIterator = (
    source as { iterator?: (o: { destroyOnReturn: boolean }) => AsyncIterable<Uint8Array | string> }
  ).iterator;
  const iterable: AsyncIterable<Uint8Array | string> =
    typeof nodeIterator === 'function'
      ? nodeIterator.call(source, { destroyOnReturn: false })
      : Symbol.asyncIterator in (source as object)
        ? (source as AsyncIterable<Uint8Array | string>)
        : streamToIterable(source as ReadableStream<Uint8Array>);
  for await (const chunk of iterable) {
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
    size += bytes.byteLength;
    if (size > limit) throw new BodyTooLargeError(limit);
    chunks.push(bytes);
  }
  return concatBytes(chunks, size);
}

/**
 * Joins byte chunks of known total size into one array (the only chunk itself when there is one).
 *
 * @example
 * concatBytes([new Uint8Array([1]), new Uint8Array([2, 3])], 3); // Uint8Array [1, 2, 3]
 */
export function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

async function* streamToIterable(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** `readBody` under a deadline: each chunk is awaited against a timer; at the deadline the source is cancelled. */
async function readBodyWithin(
  source: AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array>,
  limit: number,
  deadlineAt: number,
): Promise<Uint8Array> {
  const reader =
    typeof (source as ReadableStream<Uint8Array>).getReader === 'function'
      ? (source as ReadableStream<Uint8Array>).getReader()
      : undefined;
  const nodeIterator = (
    source as { iterator?: (o: { destroyOnReturn: boolean }) => AsyncIterable<Uint8Array | string> }
  ).iterator;
  const iterator =
    reader === undefined
      ? (typeof nodeIterator === 'function'
          ? nodeIterator.call(source, { destroyOnReturn: false })
          : (source as AsyncIterable<Uint8Array | string>))[Symbol.asyncIterator]()
      : undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), Math.max(0, deadlineAt - Date.now()));
  });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const next = await Promise.race([reader ? reader.read() : iterator!.next(), deadline]);
      if (next === 'deadline') {
        if (reader) void reader.cancel().catch(() => {});
        else void iterator!.return?.()?.catch?.(() => {});
        throw new BodyDeadlineError();
      }
      if (next.done) break;
      const bytes = typeof next.value === 'string' ? new TextEncoder().encode(next.value) : next.value;
      size += bytes.byteLength;
      if (size > limit) {
        if (reader) void reader.cancel().catch(() => {});
        throw new BodyTooLargeError(limit);
      }
      chunks.push(bytes);
    }
  } finally {
    clearTimeout(timer);
  }
  if (reader) reader.releaseLock();
  return concatBytes(chunks, size);
}
