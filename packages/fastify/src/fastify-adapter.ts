import type { FrameworkAdapter } from '@hookgate/core/adapter';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyExtra } from './options.js';
import { arrivalOf, rawBodyOf } from './raw-body-parser.js';
import { routeOutcome } from './route-outcome.js';
import { sendAnswer } from './send-answer.js';

/**
 * One Fastify call: the request, the reply, and `handOver`, which lets Fastify go on to the route
 * (a preHandler's promise resolves; the route runs once the hook returned).
 *
 * @example
 * const call: FastifyCall = { request, reply, handOver: () => resolve(undefined) };
 */
export interface FastifyCall {
  request: FastifyRequest;
  reply: FastifyReply;
  handOver: () => void;
}

/**
 * Fastify's side of core's adapter contract. The body was read by Fastify's content-type parser
 * before the handler runs: the raw bytes a `keepRawJsonBodies` parser kept (parsed by core after
 * verification, as on every adapter), a text body, or a body Fastify parsed (verified by
 * re-serialization). The route after a `webhookRoute()` preHandler is the next handler.
 *
 * @example
 * const serve = createAdapterHandler(receiver, fastifyAdapter(false), true);
 */
export function fastifyAdapter(actions: boolean): FrameworkAdapter<FastifyCall, FastifyReply, FastifyExtra> {
  return {
    request: ({ request }) => ({ method: request.method, headers: request.headers }),
    readBody({ request }) {
      const body: unknown = request.body;
      // Read by Fastify already: the body is there, nothing to wait for.
      return {
        // A text body (Fastify's text/plain parser) is the raw body; a parsed one is verified by re-serialization.
        rawBody: rawBodyOf(request) ?? (typeof body === 'string' ? body : undefined),
        parsedBody: typeof body === 'string' ? undefined : body,
        // Not parsed yet (the raw-body parser kept the bytes only): core parses after verification, with
        // JSON.parse as on every adapter (a `__proto__` key is the message's own data, no prototype changes).
        receivedAt: arrivalOf(request),
      };
    },
    context: ({ request, reply }) => ({ request, reply }),
    // The route's own answer stands (`sendAnswer` sends nothing once the reply was sent).
    writeAnswer: ({ reply }, answer) => sendAnswer(reply, answer),
    next({ request, reply, handOver }, accepted) {
      if (request.body === undefined) request.body = accepted.message;
      request.webhook = accepted.message;
      if (actions) request.webhookPayload = accepted.message;
      request.webhookContext = accepted.context;
      const outcome = routeOutcome(request, reply, accepted.context.signal);
      handOver();
      return outcome;
    },
  };
}
