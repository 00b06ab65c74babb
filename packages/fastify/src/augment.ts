// Declares `request.webhook`, `request.webhookPayload` and `request.webhookContext` on Fastify's request (declaration merging).
import type { ActionsPayload, HandlerContext, WebhookMessage } from '@hookgate/core';
import type { FastifyExtra } from './options.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The verified webhook message, set by `webhookRoute()`'s preHandler (and by the plugin's route).
     * Narrow it on `type`: `if (request.webhook?.type === 'track') request.webhook.event`.
     */
    webhook?: WebhookMessage;
    /**
     * The verified Webhooks (Actions) payload, set by `webhookRoute({ destination: 'actions' })`: any
     * JSON object (the mapping's `data`); narrow a whole Segment event with `isSpecEvent`.
     * (`request.webhook` holds it too, typed as a classic message: one request type cannot tell.)
     */
    webhookPayload?: ActionsPayload;
    /** The message's handler context: `signal` fires at the deadline; `verification`, `dedupeKey`. */
    webhookContext?: HandlerContext<FastifyExtra>;
  }
}

export {};
