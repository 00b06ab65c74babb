import type { ReceiverInput, ReceiverResponse } from '@hookgate/core';
import {
  BodyDeadlineError,
  BodyTooLargeError,
  bodyDeadlineResponse,
  readBody,
  receiverResponse,
} from '@hookgate/core/adapter';
import type { HonoRequest } from 'hono';
import { bodyUntouched, readIncoming, type NodeIncoming } from './node-incoming.js';

/**
 * The body part of core's `ReceiverInput`: raw bytes or text, or a value parsed earlier.
 *
 * @example
 * const body: HonoBody = { rawBody: new Uint8Array(await c.req.arrayBuffer()) };
 */
export type HonoBody = Pick<ReceiverInput, 'rawBody' | 'parsedBody'>;

/**
 * Hono's body cache (`c.req.bodyCache`, not part of its documented API): read when an earlier
 * middleware read the body, filled after reading the Node request directly, and narrowed to the signed
 * bytes. Without it, these fail (user-visible: the route cannot read the body, or reads unsigned
 * bytes): packages/hono/test/middleware.test.ts "stores the typed message in c.get('webhook') and reads
 * the body once, leaving it for c.req.json()/text()"; packages/hono/test/node-incoming.test.ts "verifies
 * the exact bytes of a body split across chunks …" and "falls back to reading through c.req when an
 * earlier middleware already started reading the stream"; test/adapters/raw-bytes.attack.test.ts "hono
 * on node, pass-through (the route reads c.req.text())".
 */
type Cache = { arrayBuffer?: Promise<ArrayBuffer>; text?: Promise<string>; json?: Promise<unknown> };

/**
 * Reads a Hono request's body once, under `limit` bytes (413 answer above it), and leaves it in
 * Hono's body cache so that a later `c.req.json()` / `c.req.text()` still works. A body an earlier
 * middleware already read is taken from that cache instead of the spent stream. Call it after the
 * receiver's `precheck`, which refuses a declared `Content-Length` over the limit. Given the Node
 * request behind the context (`nodeIncomingOf(c.env)` on `@hono/node-server`) and a body no one has
 * started to read, it reads the bytes straight off it: no Fetch `Request`, web stream or
 * `AbortSignal` is made, which is most of what a body read costs through `c.req` on Node. With
 * `deadline`, a body still arriving `deadlineMs` after `receivedAt` is answered 503 instead.
 *
 * @example
 * const body = await readHonoBody(c.req, receiver.maxBodyBytes, nodeIncomingOf(c.env));
 * if ('status' in body) return new Response(body.body, { status: body.status });
 */
export async function readHonoBody(
  req: HonoRequest,
  limit: number,
  incoming?: NodeIncoming,
  deadline?: { receivedAt: number; deadlineMs: number },
): Promise<HonoBody | ReceiverResponse> {
  const cache = req.bodyCache as Cache;
  if (cache.arrayBuffer) return { rawBody: new Uint8Array(await cache.arrayBuffer) };
  if (cache.text) return { rawBody: await cache.text };
  if (cache.json) return { parsedBody: await cache.json };
  const deadlineAt = deadline === undefined ? Infinity : deadline.receivedAt + deadline.deadlineMs;
  const late = () => bodyDeadlineResponse(deadline?.deadlineMs ?? 0);
  if (incoming !== undefined && bodyUntouched(incoming)) {
    const read = await readIncoming(incoming, limit, deadlineAt);
    if (read === 'too_large') return receiverResponse('payload_too_large', new BodyTooLargeError(limit).message);
    if (read === 'deadline') return late();
    cache.arrayBuffer = Promise.resolve(exactBuffer(read));
    return { rawBody: read };
  }
  // With a Content-Length (checked against the limit before this is called), the runtime's HTTP
  // parser stops the body at that length, so the runtime's own reader is safe and fastest; and it
  // fills Hono's cache itself. Without one (chunked), the body is read here, counting bytes.
  if (req.header('content-length') !== undefined) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = await (deadlineAt === Infinity
      ? req.arrayBuffer()
      : Promise.race([
          req.arrayBuffer(),
          new Promise<'deadline'>(
            (resolve) => (timer = setTimeout(() => resolve('deadline'), Math.max(0, deadlineAt - Date.now()))),
          ),
        ]).finally(() => clearTimeout(timer)));
    if (read === 'deadline') return late();
    const bytes = new Uint8Array(read);
    if (bytes.byteLength > limit) return receiverResponse('payload_too_large', new BodyTooLargeError(limit).message);
    return { rawBody: bytes };
  }
  let bytes: Uint8Array;
  try {
    bytes = await readBody(req.raw.body, limit, deadlineAt);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return receiverResponse('payload_too_large', error.message);
    if (error instanceof BodyDeadlineError) return late();
    throw error;
  }
  cache.arrayBuffer = Promise.resolve(exactBuffer(bytes));
  return { rawBody: bytes };
}

/** An `ArrayBuffer` holding exactly these bytes (Hono's body cache wants one): the bytes' own, or a copy. */
function exactBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? (bytes.buffer as ArrayBuffer)
    : bytes.slice().buffer;
}

/**
 * Leaves only the verified body in Hono's body cache: the exact text or bytes the signature matched
 * (the raw body, or the re-serialized form that matched), so a pass-through route's `c.req.text()`,
 * `json()` or `arrayBuffer()` never reads bytes that were not signed. Nothing changes when the
 * signed body is the raw body already cached, or when verification is off (`undefined`).
 *
 * @example
 * keepSignedBody(c.req, accepted.signedBody);
 */
export function keepSignedBody(req: HonoRequest, signed: string | Uint8Array | undefined): void {
  if (signed === undefined) return;
  const cache = req.bodyCache as Cache;
  if (typeof signed === 'string') {
    for (const key of Object.keys(cache)) delete (cache as Record<string, unknown>)[key];
    cache.text = Promise.resolve(signed);
    return;
  }
  if (cache.arrayBuffer !== undefined && Object.keys(cache).length === 1) return; // the raw bytes read here
  for (const key of Object.keys(cache)) delete (cache as Record<string, unknown>)[key];
  cache.arrayBuffer = Promise.resolve(exactBuffer(signed));
}
