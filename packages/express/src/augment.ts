// Declares `req.webhook`, `req.webhookPayload` and `req.webhookContext` on Express's Request (module augmentation).
import type { ActionsPayload, HandlerContext, WebhookMessage } from '@hookgate/core';
import type { ExpressExtra } from './options.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /**
       * The verified webhook message, set by `hookgate()` (pass-through use) before the next handler.
       * Narrow it on `type`: `if (req.webhook?.type === 'track') req.webhook.event`.
       */
      webhook?: WebhookMessage;
      /**
       * The verified Webhooks (Actions) payload, set by `hookgate({ destination: 'actions' })` (pass-through
       * use): any JSON object (the mapping's `data`); narrow a whole Segment event with `isSpecEvent`.
       * (`req.webhook` holds it too, typed as a classic message: one global Request type cannot tell.)
       */
      webhookPayload?: ActionsPayload;
      /** The message's handler context: `signal` fires at the deadline; `verification`, `dedupeKey`. */
      webhookContext?: HandlerContext<ExpressExtra>;
    }
  }
}

export {};
