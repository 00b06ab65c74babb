import type { FastifyReply, FastifyRequest } from 'fastify';
import { nodeRouteOutcome } from '@hookgate/core/adapter';

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
  return nodeRouteOutcome(reply.raw, signal, {
    attach: (fail) => ((request as Failing)[FAIL] = fail),
    detach: () => delete (request as Failing)[FAIL],
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
