import {
  createReceiver,
  isPassThrough,
  type Receiver,
  type ReceiverOptions,
  type ReceiverResponse,
} from '@hookgate/core';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { jsonParserOf, markWebhookPreHandler, parseDeferred } from './deferred-parse.js';
import { answerForFastifyError } from './fastify-errors.js';
import { checkWebhookRouteOptions, type FastifyExtra, type WebhookRouteOptions } from './options.js';
import { arrivalOf, rawBodyOf } from './raw-body-parser.js';
import { keepConnectionForRefusedBody } from './refused-body-connection.js';
import { failRoute, routeOutcome } from './route-outcome.js';
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
  const answers = new WeakMap<FastifyRequest, Promise<ReceiverResponse>>();
  const actions = (options as { destination?: unknown }).destination === 'actions';

  const route: WebhookRoute = {
    bodyLimit: receiver.maxBodyBytes,
    receiver,
    async preHandler(request, reply) {
      const refused = receiver.precheck(request.method, request.headers);
      if (refused) return sendAnswer(reply, refused);
      const body: unknown = request.body;
      // In a hookgateRawBody scope the body is not parsed yet: the receiver verifies, then parses.
      const deferred = body === undefined && parseDeferred(request);
      const accepted = await receiver.accept({
        method: request.method,
        headers: request.headers,
        // A text body (Fastify's text/plain parser) is the raw body; a parsed one is verified by re-serialization.
        rawBody: rawBodyOf(request) ?? (typeof body === 'string' ? body : undefined),
        parsedBody: typeof body === 'string' ? undefined : body,
        parse: deferred ? jsonParserOf(request) : undefined,
        context: { request, reply },
        receivedAt: arrivalOf(request),
      });
      if (accepted.kind === 'response') return sendAnswer(reply, accepted.response);
      if (deferred) request.body = accepted.message;
      request.webhook = accepted.message;
      if (actions) request.webhookPayload = accepted.message;
      request.webhookContext = accepted.context;
      const answer = receiver.run(accepted, () => routeOutcome(request, reply, accepted.context.signal));
      answers.set(request, answer);
      // The route's own answer stands; the receiver answers when it has not (at the deadline).
      void answer.then((a) => sendAnswer(reply, a));
      return undefined;
    },
    async errorHandler(error, request, reply) {
      const pending = answers.get(request);
      if (pending && failRoute(request, error)) return sendAnswer(reply, await pending);
      // A body refused before its end (413 by Fastify's own reader, too) is read and dropped, not reset.
      keepConnectionForRefusedBody(request, reply, error);
      return sendAnswer(reply, answerForFastifyError(error));
    },
  };
  markWebhookPreHandler(route.preHandler, receiver.deadlineMs);
  return route;
}
