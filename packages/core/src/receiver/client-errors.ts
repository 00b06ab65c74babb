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
    return { status: 408, reason: 'Request Timeout', code: 'request_timeout', message: 'The request did not arrive in time.' };
  }
  return { status: 400, reason: 'Bad Request', code: 'bad_request', message: 'The request is not valid HTTP.' };
}

/**
 * A `clientError` handler for Node's HTTP server (and Fastify's `clientErrorHandler`): answers an
 * oversize header 431, a header timeout 408 and a malformed request 400, with `Connection: close`;
 * then, instead of dropping the connection at once (which makes the kernel answer the bytes the client
 * is still sending with a reset that can wipe the answer before the client reads it), it closes its
 * side and reads and discards the rest for up to `CLIENT_ERROR_LINGER_MS`. On a keep-alive
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
  const current = (socket as { _httpMessage?: PendingResponse })._httpMessage;
  if (current?.headersSent) {
    socket.destroy(); // a response is already on the wire: another status line would corrupt it
    return;
  }
  if (current && !current.writableFinished && typeof current.once === 'function') {
    // A pipelined request's answer is still to come: the refusal goes after it, in order.
    current.once('finish', () => respond(error, socket));
    current.once('close', () => {
      if (!current.writableFinished) socket.destroy();
    });
    return;
  }
  respond(error, socket);
}

/** The response a connection is still answering (Node's `socket._httpMessage`). */
interface PendingResponse {
  headersSent?: boolean;
  writableFinished?: boolean;
  once?(event: 'finish' | 'close', listener: () => void): unknown;
}

function respond(error: Error & { code?: string }, socket: ClientErrorSocket): void {
  if (socket.destroyed || !socket.writable) {
    socket.destroy();
    return;
  }
  const a = answerFor(error.code);
  const body = JSON.stringify({ ok: false, code: a.code, message: a.message });
  socket.write(
    `HTTP/1.1 ${a.status} ${a.reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
  );
  socket.end();
  const timer = setTimeout(() => socket.destroy(), CLIENT_ERROR_LINGER_MS);
  timer.unref?.();
  socket.on('close', () => clearTimeout(timer));
  socket.on('data', () => undefined);
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
export function handleClientErrors<S extends { on(event: 'clientError', listener: (...args: any[]) => void): unknown }>(server: S): S {
  server.on('clientError', answerClientError);
  return server;
}
