import type { FastifyReply, FastifyRequest } from 'fastify';
import { RouteFailedError } from './route-failed-error.js';

const FAIL = Symbol.for('hookgate.fastify.fail');

type Failing = FastifyRequest & { [FAIL]?: (error: unknown) => void };

/**
 * Resolves when the route after the preHandler has answered 2xx; rejects when it answered anything
 * else, when the connection closed first, or when the route's error reached `failRoute`.
 *
 * @example
 * receiver.run(accepted, () => routeOutcome(request, reply, accepted.context.signal));
 */
export function routeOutcome(request: FastifyRequest, reply: FastifyReply, signal: AbortSignal): Promise<void> {
  const res = reply.raw;
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      res.off('finish', onFinish);
      res.off('close', onClose);
      delete (request as Failing)[FAIL];
      if (error === undefined) resolve();
      else reject(error);
    };
    const onFinish = () => {
      if (res.statusCode >= 200 && res.statusCode < 300) settle();
      else settle(signal.aborted ? signal.reason : new RouteFailedError(res.statusCode));
    };
    const onClose = () => settle(new Error('The connection closed before the route answered.'));
    res.on('finish', onFinish);
    res.on('close', onClose);
    (request as Failing)[FAIL] = (error) => settle(error ?? new Error('The route failed without an error value.'));
  });
}

/**
 * Hands a route's error to the pending webhook of `request`, if any; `true` when it took it.
 *
 * @example
 * if (failRoute(request, error)) return;
 */
export function failRoute(request: FastifyRequest, error: unknown): boolean {
  const fail = (request as Failing)[FAIL];
  if (!fail) return false;
  fail(error);
  return true;
}
