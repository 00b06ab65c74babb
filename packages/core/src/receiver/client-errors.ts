// Node's HTTP server errors that come before any request handler runs (headers too large, a malformed
// request, a client too slow to send its headers), answered with a status and a lingering close.

/**
 * The parts of a `net.Socket` the answer uses.
 *
 * @example
 * server.on('clientError', (error: Error, socket: ClientErrorSocket) => answerClientError(error, socket));
 */
export interface ClientErrorSocket {
  readonly destroyed: boolean;
  readonly writable: boolean;
  write(data: string): unknown;
  end(): unknown;
  destroy(): unknown;
  resume(): unknown;
  on(event: 'data' | 'close', listener: (...args: unknown[]) => void): unknown;
}

/**
 * How long the rest of a refused request is read and thrown away after the answer, at most.
 *
 * @example
 * // A client that sends 50 MB after an oversize header has this long to read the 431 first.
 * console.log(`lingering ${CLIENT_ERROR_LINGER_MS} ms`);
 */
export const CLIENT_ERROR_LINGER_MS = 1000;

const answered = new WeakSet<object>();

function answerFor(code: string | undefined): { status: number; reason: string; code: string; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: 431,
      reason: 'Request Header Fields Too Large',
      code: 'headers_too_large',
      message: "The request headers are larger than the server's limit (Node's maxHeaderSize, 16 KB by default).",
    };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      status: 408,
      reason: 'Request Timeout',
      code: 'request_timeout',
      message: 'The request did not arrive in time.',
    };
  }
  return { status: 400, reason: 'Bad Request', code: 'bad_request', message: 'The request is not valid HTTP.' };
}

/**
 * A `clientError` handler for Node's HTTP server (and Fastify's `clientErrorHandler`): answers an
 * oversize header 431, a request too slow to arrive (headers past `headersTimeout`, or the whole
 * request, body included, past `requestTimeout`) 408 and a malformed request 400, with
 * `Connection: close`; then, instead of dropping the connection at once (which makes the kernel answer
 * the bytes the client is still sending with a reset that can wipe the answer before the client reads
 * it), it closes its side and reads and discards the rest, unparsed, for up to
 * `CLIENT_ERROR_LINGER_MS`. A request whose body is still arriving (or is malformed) gets the refusal
 * on its own response, so the handler waiting for that body cannot hold it back; on a keep-alive
 * connection still answering an earlier request, the refusal follows that answer. A connection the
 * client already reset, or whose current response has begun, is just closed.
 *
 * @example
 * import Fastify from 'fastify';
 * import { answerClientError } from '@hookgate/core';
 * const app = Fastify({ clientErrorHandler: answerClientError });
 */
export function answerClientError(error: Error & { code?: string }, socket: ClientErrorSocket): void {
  if (answered.has(socket)) return;
  answered.add(socket);
  if (socket.destroyed || error.code === 'ECONNRESET') return;
  answerInTurn(error, socket);
}

/** The response a connection is still answering (Node's `socket._httpMessage`, a `ServerResponse`). */
interface PendingResponse {
  headersSent?: boolean;
  writableEnded?: boolean;
  writableFinished?: boolean;
  shouldKeepAlive?: boolean;
  /** The request it answers (Node's `res.req`). */
  req?: { complete?: boolean };
  writeHead?(status: number, headers: Record<string, string>): unknown;
  end?(body: string): unknown;
  once?(event: 'finish' | 'close', listener: () => void): unknown;
}

function answerInTurn(error: Error & { code?: string }, socket: ClientErrorSocket): void {
  if (socket.destroyed) return;
  // Node's private `_httpMessage` (Node's own default clientError handler reads it too): no public API
  // gives a `clientError` handler the response its connection is still answering. Without it the
  // refusal goes out at once, before an earlier keep-alive answer still to come, and the client reads
  // 431/408 as the answer to its earlier request, whose real answer is lost after the close
  // (packages/core/test/client-errors.test.ts fails that way).
  const current = (socket as { _httpMessage?: PendingResponse | null })._httpMessage;
  if (current === undefined || current === null || current.writableFinished === true) {
    respond(error, socket);
    return;
  }
  if (current.headersSent !== true && current.req?.complete === false && typeof current.writeHead === 'function') {
    // The request being answered is the one still arriving (its body too slow, or malformed): Node's
    // parser is on it, so the refusal is its own answer (waiting for that response would wait for ever).
    respondOn(current, error, socket);
    return;
  }
  if (current.headersSent === true && current.writableEnded !== true) {
    socket.destroy(); // a response is half on the wire: another status line would corrupt it
    return;
  }
  if (typeof current.once !== 'function') {
    socket.destroy();
    return;
  }
  // An earlier request's answer is still to come: the refusal goes after it, in order (a pipelined
  // request after it may then be the one still arriving, answered on its own response).
  current.once('finish', () => answerInTurn(error, socket));
  current.once('close', () => {
    if (current.writableFinished !== true) socket.destroy();
  });
}

function refusalFor(error: Error & { code?: string }): { a: ReturnType<typeof answerFor>; body: string } {
  const a = answerFor(error.code);
  return { a, body: JSON.stringify({ ok: false, code: a.code, message: a.message }) };
}

/** Answers on the connection's current response, then closes lingering (not Node's immediate destroy). */
function respondOn(res: PendingResponse, error: Error & { code?: string }, socket: ClientErrorSocket): void {
  const { a, body } = refusalFor(error);
  // Node ends a `Connection: close` answer with `socket.destroySoon()`, which closes at once: linger instead.
  (socket as { destroySoon?: () => void }).destroySoon = () => closeLingering(socket);
  stopParsing(socket);
  try {
    res.shouldKeepAlive = false;
    res.writeHead!(a.status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(body.length),
      Connection: 'close',
    });
    res.end!(body);
  } catch {
    socket.destroy();
  }
}

function respond(error: Error & { code?: string }, socket: ClientErrorSocket): void {
  if (socket.destroyed || !socket.writable) {
    socket.destroy();
    return;
  }
  const { a, body } = refusalFor(error);
  stopParsing(socket);
  socket.write(
    `HTTP/1.1 ${a.status} ${a.reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
  );
  closeLingering(socket);
}

/**
 * The rest of a refused connection is read and thrown away, never parsed: no request that arrives
 * after the refusal (the end of a timed-out request's headers, a pipelined one) reaches a handler.
 */
function stopParsing(socket: ClientErrorSocket): void {
  const events = socket as { removeAllListeners?(event: string): unknown };
  events.removeAllListeners?.('data');
  socket.on('data', () => undefined); // also takes the bytes back from Node's parser, which read them itself
  socket.resume();
}

const lingering = new WeakSet<object>();

function closeLingering(socket: ClientErrorSocket): void {
  if (lingering.has(socket)) return; // asked again (a framework's own close of the same connection)
  lingering.add(socket);
  socket.end();
  const timer = setTimeout(() => socket.destroy(), CLIENT_ERROR_LINGER_MS);
  timer.unref?.();
  socket.on('close', () => clearTimeout(timer));
  socket.resume();
}

/**
 * Installs `answerClientError` as a Node HTTP server's `clientError` handler and returns the server:
 * for `node:http` with `toNodeListener`, Express's `app.listen()`, and `@hono/node-server`'s `serve()`.
 *
 * @example
 * import http from 'node:http';
 * import { createReceiver, handleClientErrors, toNodeListener } from '@hookgate/core';
 * handleClientErrors(http.createServer(toNodeListener(createReceiver({ secret, onMessage })))).listen(3000);
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function handleClientErrors<S extends { on(event: 'clientError', listener: (...args: any[]) => void): unknown }>(
  server: S,
): S {
  server.on('clientError', answerClientError);
  return server;
}
