// The time limits of the HTTP servers hookgate starts itself (`serve`'s intake and inspector,
// `listen`): a client that sends its headers or its body too slowly is answered 408 and dropped,
// so a handful of trickling sockets cannot hold the server open for ever.
import http from 'node:http';
import { answerClientError } from '@hookgate/core';

/**
 * Time limits of a local server, in milliseconds.
 *
 * @example
 * await startListener({ secret, timeouts: { headersMs: 2000 } });
 */
export interface ServerTimeouts {
  /** The request's headers must be complete this long after its first byte (Node's `headersTimeout`). Default 10,000. */
  headersMs?: number;
  /** The whole request, body included, must have arrived this long after its first byte (Node's `requestTimeout`). Default 30,000. */
  requestMs?: number;
  /** An idle keep-alive connection is closed after this long (Node's `keepAliveTimeout`). Default 30,000. */
  keepAliveMs?: number;
}

/**
 * The defaults: headers in 10 s, the whole request in 30 s, idle keep-alive connections closed after 30 s.
 *
 * @example
 * const headersMs = options.timeouts?.headersMs ?? DEFAULT_SERVER_TIMEOUTS.headersMs; // 10000
 */
export const DEFAULT_SERVER_TIMEOUTS = Object.freeze({ headersMs: 10_000, requestMs: 30_000, keepAliveMs: 30_000 });

/**
 * The `--help` sentence that states them.
 *
 * @example
 * process.stdout.write(`${SERVER_TIMEOUTS_HELP}\n`);
 */
export const SERVER_TIMEOUTS_HELP = `Time limits: request headers must arrive within ${DEFAULT_SERVER_TIMEOUTS.headersMs / 1000} s and the whole request within ${DEFAULT_SERVER_TIMEOUTS.requestMs / 1000} s
(408 otherwise); idle keep-alive connections close after ${DEFAULT_SERVER_TIMEOUTS.keepAliveMs / 1000} s.`;

function whole(name: string, value: number | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new RangeError(
      `timeouts.${name} must be a whole number of milliseconds from 1 to ${max} (got ${JSON.stringify(value)}); leave it out for ${fallback}.`,
    );
  }
  return value;
}

/**
 * Creates a `node:http` server with these time limits enforced (checked at least every second, not
 * at Node's default of every 30 s) and Node's early client errors (slow or oversize headers, bad
 * requests, a body still arriving at `requestMs`) answered with a status by core's `answerClientError`.
 *
 * @example
 * const server = createBoundedServer(listener, { headersMs: 10_000 });
 */
export function createBoundedServer(listener: http.RequestListener, timeouts: ServerTimeouts = {}): http.Server {
  if (typeof timeouts !== 'object' || timeouts === null)
    throw new TypeError('timeouts must be an object { headersMs?, requestMs?, keepAliveMs? }.');
  const headersMs = whole('headersMs', timeouts.headersMs, DEFAULT_SERVER_TIMEOUTS.headersMs, 600_000);
  const requestMs = whole(
    'requestMs',
    timeouts.requestMs,
    Math.max(DEFAULT_SERVER_TIMEOUTS.requestMs, headersMs),
    3_600_000,
  );
  const keepAliveMs = whole('keepAliveMs', timeouts.keepAliveMs, DEFAULT_SERVER_TIMEOUTS.keepAliveMs, 600_000);
  if (requestMs < headersMs)
    throw new RangeError(
      `timeouts.requestMs (${requestMs}) must not be below timeouts.headersMs (${headersMs}): the headers are part of the request.`,
    );
  const server = http.createServer(
    {
      headersTimeout: headersMs,
      requestTimeout: requestMs,
      keepAliveTimeout: keepAliveMs,
      connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(headersMs / 4))),
    },
    listener,
  );
  // Core's answer: 431/408/400 with a lingering close; a body still arriving at requestMs gets its 408 on its own response.
  server.on('clientError', answerClientError);
  return server;
}

/**
 * Stops a server made by `createBoundedServer` promptly: no new connections, idle keep-alive
 * connections closed now, and a connection whose request is answered after this point closed as soon
 * as it goes idle (instead of being kept alive for `keepAliveMs`, which would hold the close that long).
 * `done` is `server.close`'s callback: called once every connection has ended.
 *
 * @example
 * await new Promise<void>((resolve, reject) => closeBoundedServer(server, (e) => (e ? reject(e) : resolve())));
 */
export function closeBoundedServer(server: http.Server, done: (error?: Error) => void): void {
  server.close(done);
  server.closeIdleConnections();
  server.keepAliveTimeout = 1;
}
