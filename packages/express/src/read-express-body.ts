import type { ReceiverInput, ReceiverResponse } from '@hookgate/core';
import { readNodeBody } from '@hookgate/core/adapter';
import type { Request } from 'express';

/**
 * The body part of core's `ReceiverInput`: raw bytes or text, a parsed value, or both.
 *
 * @example
 * const body: ExpressBody = { parsedBody: req.body, rawBody: req.rawBody };
 */
export type ExpressBody = Pick<ReceiverInput, 'rawBody' | 'parsedBody'>;

type ParsedRequest = Request & { rawBody?: unknown };

/**
 * Finds the body of an Express request in whatever state earlier middleware left it:
 * - nothing read it yet: reads the raw bytes from the stream, under the receiver's limit (413 above)
 *   and deadline counted from `receivedAt` (503 for a body still arriving then);
 * - `express.raw()` / `express.text()` ran: those bytes / that text are the raw body;
 * - `express.json()` ran: its parsed value (verified by re-serialization, as the sender serializes), plus the
 *   raw bytes when its `verify` option kept them in `req.rawBody`.
 *
 * @example
 * const body = await readExpressBody(req, receiver);
 * if ('status' in body) return writeNodeResponse(res, body);
 */
export async function readExpressBody(
  req: Request,
  receiver: { maxBodyBytes: number; deadlineMs: number },
  receivedAt: number = Date.now(),
): Promise<ExpressBody | ReceiverResponse> {
  const r = req as ParsedRequest;
  const body: unknown = r.body;
  if (body instanceof Uint8Array || typeof body === 'string') return { rawBody: body };
  // A parser ran: it left a value and read the stream to its end (no private flag of body-parser read).
  if (body !== undefined && req.readableEnded) {
    return {
      parsedBody: body,
      rawBody: r.rawBody instanceof Uint8Array || typeof r.rawBody === 'string' ? r.rawBody : undefined,
    };
  }
  const bytes = await readNodeBody(req, receiver, receivedAt);
  return bytes instanceof Uint8Array ? { rawBody: bytes } : bytes;
}
