import zlib from 'node:zlib';

/**
 * Decodes an answer body sent with `Content-Encoding: gzip` (or `x-gzip`) or `deflate` (zlib-wrapped
 * or raw, told apart by its first byte as node-fetch does), handing the decoded bytes to `take` as
 * they come. `take` returns `true` once it has all it keeps: decoding stops there (a small answer
 * that would inflate to gigabytes costs no more than what is kept). A body cut short gives what it
 * held; one that does not decode gives what decoded before the fault. Returns `undefined` for any
 * other encoding (the body is kept as it came).
 *
 * @example
 * const decoder = answerDecoder(res.headers['content-encoding'], (chunk) => keep(chunk));
 * res.on('data', (chunk) => decoder?.write(chunk));
 * res.on('end', () => decoder?.end(() => report()));
 */
export function answerDecoder(
  encoding: string | undefined,
  take: (decoded: Buffer) => boolean,
): { write(chunk: Buffer): void; end(done: () => void): void } | undefined {
  const name = encoding?.trim().toLowerCase();
  if (name !== 'gzip' && name !== 'x-gzip' && name !== 'deflate') return undefined;
  // Sync flush: a body cut short still gives up what it holds instead of an error.
  const flush = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
  let stream: zlib.Gunzip | zlib.Inflate | zlib.InflateRaw | undefined;
  let stopped = false;
  let onDone: (() => void) | undefined;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    stream?.destroy();
    onDone?.();
  };
  return {
    write(chunk) {
      if (stopped || chunk.length === 0) return;
      if (stream === undefined) {
        stream =
          name === 'deflate'
            ? (chunk[0]! & 0x0f) === 0x08
              ? zlib.createInflate(flush)
              : zlib.createInflateRaw(flush)
            : zlib.createGunzip(flush);
        stream.on('data', (decoded: Buffer) => {
          if (!stopped && take(decoded)) stop();
        });
        stream.on('end', stop);
        stream.on('error', stop);
      }
      stream.write(chunk);
    },
    end(done) {
      onDone = done;
      if (stopped || stream === undefined) {
        stopped = true;
        done();
      } else stream.end();
    },
  };
}
