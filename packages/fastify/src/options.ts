import type { ReceiverOptions } from '@hookgate/core';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * What the Fastify adapter adds to every handler's context: the request and the reply.
 *
 * @example
 * app.register(hookgate, { secret, on: { track: (msg, { request }) => request.log.info(msg.event) } });
 */
export interface FastifyExtra {
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * Options of the `hookgate` plugin: core's `ReceiverOptions` (secret, on/onMessage, mode, deadlineMs,
 * maxBodyBytes, dedupe, …), whose handlers also receive `{ request, reply }`, plus the route path(s).
 *
 * @example
 * app.register(hookgate, { path: ['/webhooks', '/hooks/segment'], secret, onMessage: (msg) => queue.push(msg) });
 */
export type HookgatePluginOptions = ReceiverOptions<FastifyExtra> & {
  /** Path(s) of the route(s) the plugin registers (every method; non-POST answers 405). Default `/webhooks`. */
  path?: string | readonly string[];
};

/**
 * Options of `webhookRoute()` for a route of your own: core's `ReceiverOptions` without handlers
 * (your route handler is the handler).
 *
 * @example
 * app.all('/mine', webhookRoute({ secret }), (request) => ({ type: request.webhook!.type }));
 */
export type WebhookRouteOptions = Omit<ReceiverOptions<FastifyExtra>, 'on' | 'onMessage'>;
