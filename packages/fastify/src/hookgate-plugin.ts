import { createReceiver } from '@hookgate/core';
import { createAdapterHandler } from '@hookgate/core/adapter';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { decorateWebhookRequest } from './decorate-request.js';
import { answerForFastifyError } from './fastify-errors.js';
import { fastifyAdapter } from './fastify-adapter.js';
import {
  checkPluginOptions,
  type FastifyExtra,
  type HookgateActionsPluginOptions,
  type HookgatePluginOptions,
} from './options.js';
import { keepRawJsonBodies } from './raw-body-parser.js';
import { sendAnswer } from './send-answer.js';

function pathsOf(path: HookgatePluginOptions['path']): string[] {
  const list = path === undefined ? ['/webhooks'] : typeof path === 'string' ? [path] : [...path];
  if (list.length === 0 || list.some((p) => typeof p !== 'string' || !p.startsWith('/'))) {
    throw new TypeError(
      `path must be a route path starting with "/" (or a non-empty list of them); got ${JSON.stringify(path)}.`,
    );
  }
  return list;
}

async function hookgatePlugin(
  app: FastifyInstance,
  options: HookgatePluginOptions | HookgateActionsPluginOptions,
): Promise<void> {
  const {
    path,
    prefix: _prefix,
    logLevel: _logLevel,
    logSerializers: _logSerializers,
    ...receiverOptions
  } = checkPluginOptions(options) as HookgatePluginOptions & Record<'prefix' | 'logLevel' | 'logSerializers', unknown>;
  const handlers = receiverOptions as { on?: unknown; onMessage?: unknown; onPayload?: unknown; enqueue?: unknown };
  if (
    handlers.on === undefined &&
    handlers.onMessage === undefined &&
    handlers.onPayload === undefined &&
    handlers.enqueue === undefined
  ) {
    throw new TypeError(
      'The hookgate plugin registers its own route and needs handlers: give `on` (per message type) or `onMessage`, or `enqueue` to hand messages to a queue ' +
        "(with destination: 'actions', `on` per Segment event type or `onPayload`). " +
        'To verify on a route of your own, use webhookRoute() instead.',
    );
  }
  const paths = pathsOf(path);
  // Either destination's options: core picks the destination's rules from `destination`.
  const receiver = createReceiver<FastifyExtra>(receiverOptions);
  // Decorations escape the plugin (fastify-plugin), so every route can read request.webhook.
  decorateWebhookRequest(app);
  // Nothing is lost on shutdown: app.close() waits for handlers still running in the background.
  app.addHook('onClose', async () => {
    await receiver.drain();
  });
  // The raw-body parser and the error mapping stay inside this encapsulated child context: other
  // routes keep Fastify's default parser and error handler.
  await app.register(async (scope) => {
    // Bodies are kept as raw bytes only: the receiver verifies them first, then parses them as every
    // adapter does (JSON.parse: no prototype changes), so an unsigned body is a 401 whatever it holds.
    keepRawJsonBodies(scope, {
      bodyLimit: receiver.maxBodyBytes,
      anyType: true,
      parse: false,
      deadlineMs: receiver.deadlineMs,
    });
    const serve = createAdapterHandler(receiver, fastifyAdapter(false), false);
    scope.setErrorHandler((error, _request, reply) =>
      sendAnswer(reply, answerForFastifyError(error as { statusCode?: number; message?: string })),
    );
    for (const url of paths) {
      scope.all(url, { bodyLimit: receiver.maxBodyBytes }, (request, reply) =>
        serve({ request, reply, handOver: () => {} }),
      );
    }
  });
}

/**
 * The Fastify plugin: registers the webhook route(s) (default `/webhooks`) in an encapsulated
 * context that keeps the raw bytes; the signature is verified first, then the body is parsed as on
 * every adapter (a `__proto__` key is the message's own data; Fastify's body limit stays on, mapped
 * to 413). Runs your `on` / `onMessage` handlers under the status table, and declares
 * `request.webhook` app-wide. Wrapped with fastify-plugin.
 *
 * @example
 * import Fastify from 'fastify';
 * import { hookgate } from '@hookgate/fastify';
 *
 * const app = Fastify();
 * await app.register(hookgate, {
 *   secret: process.env.WEBHOOK_SECRET!,
 *   on: { track: (msg) => console.log(msg.event), alias: (msg) => console.log(msg['Previous ID']) },
 * });
 * await app.listen({ port: 3001 });
 */
export const hookgate = fp<HookgatePluginOptions>(hookgatePlugin, { fastify: '5.x', name: '@hookgate/fastify' });

/** `hookgate` for Segment's Webhooks (Actions) destination: the same plugin with `destination: 'actions'`. */
async function hookgateActionsPlugin(app: FastifyInstance, options: HookgateActionsPluginOptions): Promise<void> {
  const given =
    options === null || typeof options !== 'object' ? options : { ...options, destination: 'actions' as const };
  return hookgatePlugin(app, given);
}

/**
 * The Fastify plugin for Segment's Webhooks (Actions) destination: `hookgate` with
 * `destination: 'actions'` (POST, PUT and PATCH; whole Segment events to `on`, mapped payloads to
 * `onPayload`, checked by any Standard Schema; batches refused unless `insecureAcceptBatches`).
 *
 * @example
 * import Fastify from 'fastify';
 * import { hookgateActions } from '@hookgate/fastify';
 *
 * const app = Fastify();
 * await app.register(hookgateActions, {
 *   path: '/segment',
 *   secret: process.env.WEBHOOK_SECRET!,
 *   on: { track: (event) => console.log(event.event, event.messageId) },
 * });
 */
export const hookgateActions = fp<HookgateActionsPluginOptions>(hookgateActionsPlugin, {
  fastify: '5.x',
  name: '@hookgate/fastify-actions',
});
