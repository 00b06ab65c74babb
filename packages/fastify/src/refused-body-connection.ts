import { endUnreadBody } from '@hookgate/core/adapter';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { RefusedBodyError } from './refused-body-error.js';

/**
 * Keeps the connection of a request whose body was refused before its end until the sender has
 * written it, so the sender reads the answer instead of a reset. Fastify marks the answer to any body
 * parser error `Connection: close`, and Node closes the socket as soon as that answer is written:
 * with the sender's bytes still arriving, the kernel then resets the connection, which throws away
 * the answer before a sender that writes its whole body first has read it. Here the rest of the body
 * is read and dropped instead (core's `endUnreadBody`: at most 2 s and 64 MiB after the answer, then
 * the connection is closed), and the `Connection: close` mark is removed. A `RefusedBodyError` from
 * hookgate's raw-body parser is draining already; a 413 from Fastify's own reader (a route without
 * `hookgateRawBody`) is drained from here. Other errors are left as Fastify made them.
 *
 * @example
 * scope.addHook('onError', (request, reply, error, done) => {
 *   keepConnectionForRefusedBody(request, reply, error);
 *   done();
 * });
 */
export function keepConnectionForRefusedBody(
  request: FastifyRequest,
  reply: FastifyReply,
  error: Pick<FastifyError, 'statusCode'>,
): void {
  if (!(error instanceof RefusedBodyError)) {
    if (error.statusCode !== 413) return;
    endUnreadBody(request.raw, reply.raw);
  }
  if (!reply.sent) reply.removeHeader('connection');
}
