/**
 * The Fastify plugin for the Webhooks destination.
 *
 * @packageDocumentation
 * @module @hookgate/fastify
 */
export type {} from './augment.js'; // the augmentation: types only, no runtime code

export { hookgate, hookgateActions } from './hookgate-plugin.js';
export { hookgateActionsOptions, hookgateOptions } from './plan-options.js';
export { webhookRoute, type WebhookRoute } from './webhook-route.js';
export { hookgateRawBody, keepRawJsonBodies, rawBodyOf, type RawBodyOptions } from './raw-body-parser.js';
export { answerForFastifyError } from './fastify-errors.js';
export { sendAnswer } from './send-answer.js';
export { decorateWebhookRequest } from './decorate-request.js';
export type {
  FastifyExtra,
  HookgateActionsPluginOptions,
  HookgatePluginOptions,
  PluginPath,
  WebhookRouteOptions,
} from './options.js';
export { RouteFailedError } from '@hookgate/core';
// Status answers (431, 408, 400) for what the HTTP server refuses before any route runs.
export { answerClientError } from '@hookgate/core';
