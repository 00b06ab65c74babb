// Declares `request.webhook` and `request.webhookContext` on Fastify's request (declaration merging).
import type { HandlerContext, WebhookMessage } from '@hookgate/core';
import type { FastifyExtra } from './options.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The verified webhook message, set by `webhookRoute()`'s preHandler (and by the plugin's route).
     * Narrow it on `type`: `if (request.webhook?.type === 'track') request.webhook.event`.
     */
    webhook?: WebhookMessage;
    /** The message's handler context: `signal` fires at the deadline; `verification`, `dedupeKey`. */
    webhookContext?: HandlerContext<FastifyExtra>;
  }
}

export {};
