import { createReceiver, type Receiver, type ReceiverOptions } from '@hookgate/core';
import { createAdapterHandler, isPassThrough } from '@hookgate/core/adapter';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { markWebhookPreHandler } from './deferred-parse.js';
import { fastifyAdapter } from './fastify-adapter.js';
import { answerForFastifyError } from './fastify-errors.js';
import { checkWebhookRouteOptions, type FastifyExtra, type WebhookRouteOptions } from './options.js';
import { keepConnectionForRefusedBody } from './refused-body-connection.js';
import { failRoute } from './route-outcome.js';
import { sendAnswer } from './send-answer.js';

/**
 * Route options to spread into a route of your own: `app.all(path, webhookRoute(o), handler)`.
 *
 * @example
 * const route: WebhookRoute = webhookRoute({ secret });
 * app.post('/hooks', { ...route, config: { name: 'hooks' } }, handler);
 * app.addHook('onClose', () => route.receiver.drain());
 */
export interface WebhookRoute {
  /** Verifies and validates; answers refusals itself; sets `request.webhook` for the handler. */
  preHandler: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;
  /** Turns the route's errors into the receiver's 500 and Fastify's body errors into 413/400/415. */
  errorHandler: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
  /** The receiver's `maxBodyBytes`, as the route's Fastify body limit. */
  bodyLimit: number;
  /** The core receiver: `await route.receiver.drain()` on shutdown. */
  readonly receiver: Receiver<FastifyExtra>;
}

/**
 * Verification for a route of your own: a `preHandler` (plus the route's `errorHandler` and
 * `bodyLimit`) that answers refusals with the status table and otherwise sets the typed
 * `request.webhook`, then runs your handler under the deadline. Verifies the exact bytes when the
 * route's scope keeps them (`hookgateRawBody`), else the parsed body by re-serialization.
 *
 * @example
 * import Fastify from 'fastify';
 * import { webhookRoute } from '@hookgate/fastify';
 *
 * const app = Fastify();
 * app.all('/webhooks', webhookRoute({ secret: process.env.WEBHOOK_SECRET! }), async (request) => {
 *   const msg = request.webhook!;
 *   if (msg.type === 'track') console.log(msg.event);
 *   return { ok: true };
 * });
 */
export function webhookRoute(options: WebhookRouteOptions): WebhookRoute {
  options = checkWebhookRouteOptions(options);
  const given = options as { on?: unknown; onMessage?: unknown; onPayload?: unknown; enqueue?: unknown };
  if (
    given.on !== undefined ||
    given.onMessage !== undefined ||
    given.onPayload !== undefined ||
    given.enqueue !== undefined
  ) {
    throw new TypeError(
      'webhookRoute() runs your route handler as the handler, so `on` / `onMessage` would never run (nor `onPayload`, nor the `enqueue` handoff). ' +
        'Drop them, or register the hookgate plugin, whose own route runs them.',
    );
  }
  // Either destination's options: core picks the destination's rules from `destination`.
  const receiver = createReceiver<FastifyExtra>(options as ReceiverOptions<FastifyExtra>);
  isPassThrough(
    options,
    'Register the hookgate plugin with `on` / `onMessage` for acknowledge-first, or leave mode at its default.',
  );
  const serve = createAdapterHandler(receiver, fastifyAdapter(options.destination === 'actions'), true);
  /** Each request's run through the receiver, until its answer is written (for the route's errors). */
  const runs = new WeakMap<FastifyRequest, Promise<FastifyReply>>();

  const route: WebhookRoute = {
    bodyLimit: receiver.maxBodyBytes,
    receiver,
    // Resolves once the receiver answered (a refusal) or handed the message over to the route.
    preHandler: (request, reply) =>
      new Promise((resolve, reject) => {
        const run = serve({ request, reply, handOver: () => resolve(undefined) });
        runs.set(request, run);
        run.then(resolve, reject);
      }),
    async errorHandler(error, request, reply) {
      const run = runs.get(request);
      // The route's error: the receiver answers it (500) and settles the message as failed.
      if (run && failRoute(request, error)) return run;
      // A body refused before its end (413 by Fastify's own reader, too) is read and dropped, not reset.
      keepConnectionForRefusedBody(request, reply, error);
      return sendAnswer(reply, answerForFastifyError(error));
    },
  };
  markWebhookPreHandler(route.preHandler, receiver.deadlineMs);
  return route;
}
