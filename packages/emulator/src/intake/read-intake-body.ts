import type { IncomingMessage } from 'node:http';
import { gunzip, inflate } from 'node:zlib';
import { readNodeStream } from '@hookgate/core/adapter';
import { intakeError, type IntakeResponse } from './intake-response.js';

/**
 * The body as bytes, or the answer refusing it; `consumed` says whether the request was read to its
 * end (when it was not, the connection is closed after the answer rather than reading the rest).
 */
export type IntakeBody = { ok: true; bytes: Buffer } | { ok: false; response: IntakeResponse; consumed: boolean };

const tooLarge = (limit: number, what: string): IntakeResponse =>
  intakeError(
    'batch_too_large',
    `The request body ${what} the limit of ${limit} bytes (500 KB per batch, as the tracking API); split it into smaller batches.`,
  );

/**
 * Reads an intake request's body with a hard cap: stops keeping bytes as soon as `limit` is passed
 * (the rest is read and dropped, nothing unbounded is buffered; core's `readNodeStream`), refuses a
 * declared `Content-Length` above the limit before reading,
 * and decompresses `Content-Encoding: gzip` or `deflate` under the same cap.
 *
 * @example
 * const body = await readIntakeBody(req, MAX_BATCH_BYTES);
 * if (!body.ok) return send(res, body.response);
 */
export async function readIntakeBody(req: IncomingMessage, limit: number): Promise<IntakeBody> {
  const encoding = String(req.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  if (encoding !== 'identity' && encoding !== 'gzip' && encoding !== 'deflate') {
    return {
      ok: false,
      consumed: false,
      response: intakeError(
        'unsupported_encoding',
        `Content-Encoding ${JSON.stringify(encoding)} is not supported; send the body uncompressed or with gzip or deflate.`,
      ),
    };
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    return { ok: false, consumed: false, response: tooLarge(limit, `declares ${declared} bytes, above`) };
  }
  const read = await readNodeStream(req, limit);
  if (read === undefined) return { ok: false, consumed: false, response: tooLarge(limit, 'is larger than') };
  const raw = Buffer.isBuffer(read) ? read : Buffer.from(read.buffer, read.byteOffset, read.byteLength);
  if (encoding === 'identity') return { ok: true, bytes: raw };
  const inflateFn = encoding === 'gzip' ? gunzip : inflate;
  return new Promise<IntakeBody>((resolve) => {
    inflateFn(raw, { maxOutputLength: limit }, (error, bytes) => {
      if (!error) return resolve({ ok: true, bytes });
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
        return resolve({ ok: false, consumed: true, response: tooLarge(limit, 'decompresses to more than') });
      }
      resolve({
        ok: false,
        consumed: true,
        response: intakeError('invalid_encoding', `The body is not valid ${encoding} data: ${error.message}`),
      });
    });
  });
}
