import { type ActionsReceiverOptions, type ReceiverOptions, type StandardSchemaV1 } from '@hookgate/core';
import { checkReceiverOptions } from '@hookgate/core/adapter';
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
 * maxBodyBytes, dedupe, …) or, with `destination: 'actions'`, its `ActionsReceiverOptions` (on,
 * onPayload, schema, insecureAcceptBatches), whose handlers also receive `{ request, reply }`, plus the route path(s).
 *
 * @example
 * app.register(hookgate, { path: ['/webhooks', '/hooks/segment'], secret, onMessage: (msg) => queue.push(msg) });
 */
export type HookgatePluginOptions = ReceiverOptions<FastifyExtra> & PluginPath;

/**
 * Options of the `hookgateActions` plugin (Segment's Webhooks (Actions) destination): core's
 * `ActionsReceiverOptions` (on per Segment event type, onPayload, schema, insecureAcceptBatches,
 * secret, mode, deadlineMs, dedupe, …), whose handlers also receive `{ request, reply }`, plus the
 * route path(s). `destination: 'actions'` is implied. A separate type (and plugin name) because
 * Fastify's `register` cannot tell two option shapes apart for an inline object.
 *
 * @example
 * app.register(hookgateActions, { path: '/segment', secret, on: { track: (event) => console.log(event.event, event.messageId) } });
 */
// The payload type cannot follow a schema through Fastify's register: `onPayload` takes `any` here;
// annotate its parameter (or use createReceiver for an inferred one).

export type HookgateActionsPluginOptions = Omit<
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the payload type cannot follow a schema through register (above)
  ActionsReceiverOptions<FastifyExtra, StandardSchemaV1<unknown, any> | undefined>,
  'destination'
> & {
  /** Implied; may be given. */
  destination?: 'actions';
} & PluginPath;

/**
 * The plugins' own option: where their routes are.
 *
 * @example
 * const where: PluginPath = { path: ['/webhooks', '/hooks/segment'] };
 */
export interface PluginPath {
  /** Path(s) of the route(s) the plugin registers (every method; for the classic destination non-POST answers 405). Default `/webhooks`. */
  path?: string | readonly string[];
}

/**
 * Options of `webhookRoute()` for a route of your own: core's `ReceiverOptions` without handlers
 * (your route handler is the handler).
 *
 * @example
 * app.all('/mine', webhookRoute({ secret }), (request) => ({ type: request.webhook!.type }));
 */
export type WebhookRouteOptions =
  | Omit<ReceiverOptions<FastifyExtra>, 'on' | 'onMessage'>
  | Omit<ActionsReceiverOptions<FastifyExtra>, 'on' | 'onPayload' | 'schema' | 'insecureAcceptBatches'>;

/** What Fastify's `register` itself reads from a plugin's options, and passes on with them. */
const FASTIFY_REGISTER_OPTIONS = ['prefix', 'logLevel', 'logSerializers'] as const;

/**
 * Checks the plugin's options at registration: every name is an option of the receiver, `path`, or
 * one Fastify's `register` reads (`prefix`, `logLevel`, `logSerializers`); `on` keys are message
 * types; `null` means left out. Throws an error naming the option and the nearest valid name.
 *
 * @example
 * checkPluginOptions({ secret, paht: '/hooks', onMessage }); // throws: … did you mean "path"?
 */
export function checkPluginOptions(given: unknown): HookgatePluginOptions | HookgateActionsPluginOptions {
  return checkReceiverOptions<HookgatePluginOptions | HookgateActionsPluginOptions>(given, {
    caller: 'the hookgate plugin',
    adapterOptions: ['path', ...FASTIFY_REGISTER_OPTIONS],
  });
}

/**
 * Checks `webhookRoute()`'s options at creation, like the plugin's (no `path`: the route is yours).
 *
 * @example
 * checkWebhookRouteOptions({ secret, deadlinMs: 3000 }); // throws: … did you mean "deadlineMs"?
 */
export function checkWebhookRouteOptions(given: unknown): WebhookRouteOptions {
  return checkReceiverOptions<WebhookRouteOptions>(given, { caller: 'webhookRoute()' });
}
