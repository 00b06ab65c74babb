/**
 * The parts of a Node request and response that `endUnreadBody` uses (an `IncomingMessage` and a
 * `ServerResponse` fit).
 *
 * @example
 * endUnreadBody(req as UnreadBodyRequest, res as UnreadBodyResponse);
 */
export interface UnreadBodyRequest {
  readableEnded?: boolean;
  complete?: boolean;
  socket?: { destroy(): unknown } | null;
  on(event: string, listener: (arg?: unknown) => void): unknown;
  removeListener(event: string, listener: (arg?: unknown) => void): unknown;
  resume(): unknown;
}

/**
 * The parts of a Node response that `endUnreadBody` uses: when the answer has been sent.
 *
 * @example
 * const res: UnreadBodyResponse = serverResponse; // an http.ServerResponse fits
 */
export interface UnreadBodyResponse {
  writableFinished?: boolean;
  once(event: string, listener: () => void): unknown;
}

/**
 * After a refusal, how long the rest of a body is read and dropped before the connection is closed.
 *
 * @example
 * const closedBy = Date.now() + UNREAD_BODY_GRACE_MS; // at the latest, once the 413 was sent
 */
export const UNREAD_BODY_GRACE_MS = 2000;
/**
 * After a refusal, how many more bytes are read and dropped at most before the connection is closed.
 *
 * @example
 * const worstCase = UNREAD_BODY_MAX_BYTES * concurrentUploads; // bytes read and dropped
 */
export const UNREAD_BODY_MAX_BYTES = 64 * 1024 * 1024;

/** Requests whose rest is being read and dropped. */
const draining = new WeakSet<UnreadBodyRequest>();

/**
 * Ends a request whose body was refused before its end (413, or 503 when still arriving at the
 * deadline) without a reset before the client reads the answer. Call it before writing the answer.
 * The rest of the body is read and dropped (closing a connection with unread bytes in it makes the
 * kernel send a reset, which can reach the client before it read the answer). Once the answer is
 * sent, the rest is read for at most `UNREAD_BODY_GRACE_MS` and `UNREAD_BODY_MAX_BYTES`, then the
 * connection is closed; a body that ends sooner leaves it to Node (kept alive, or closed when the
 * answer said `Connection: close`). Without `res` (a framework writes the answer), the grace starts now.
 * A second call for the same request does nothing.
 *
 * @example
 * endUnreadBody(req, res);
 * writeNodeResponse(res, receiverResponse('payload_too_large', 'The body is over 1 MiB.'));
 */
export function endUnreadBody(req: UnreadBodyRequest, res?: UnreadBodyResponse): void {
  if (req.readableEnded === true || req.complete === true) return;
  // Once per request: a framework's error path may ask again (Fastify's onError hook, then the route's error handler).
  if (draining.has(req)) return;
  draining.add(req);
  let dropped = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const close = () => {
    stop();
    req.socket?.destroy();
  };
  const onData = (chunk: unknown) => {
    dropped +=
      (chunk as { byteLength?: number; length?: number }).byteLength ?? (chunk as { length: number }).length ?? 0;
    if (dropped > UNREAD_BODY_MAX_BYTES) close();
  };
  const stop = () => {
    if (timer !== undefined) clearTimeout(timer);
    req.removeListener('data', onData);
    req.removeListener('end', stop);
    req.removeListener('close', stop);
  };
  // A 'data' listener also tells Node the body is being consumed: it does not dump it itself.
  req.on('data', onData);
  req.on('end', stop);
  req.on('close', stop);
  req.resume();
  const startGrace = () => {
    if (req.readableEnded === true) return;
    timer = setTimeout(close, UNREAD_BODY_GRACE_MS);
    (timer as { unref?: () => void }).unref?.();
  };
  if (res === undefined || res.writableFinished === true) startGrace();
  else res.once('finish', startGrace);
}
