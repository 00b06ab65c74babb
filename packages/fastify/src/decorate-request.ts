import type { FastifyInstance } from 'fastify';

/**
 * Declares `request.webhook`, `request.webhookPayload` and `request.webhookContext` on an instance (once), so requests keep
 * one shape. Done by the plugins on the context they are registered in.
 *
 * @example
 * decorateWebhookRequest(app);
 */
export function decorateWebhookRequest(app: FastifyInstance): void {
  if (!app.hasRequestDecorator('webhook')) app.decorateRequest('webhook', undefined);
  if (!app.hasRequestDecorator('webhookPayload')) app.decorateRequest('webhookPayload', undefined);
  if (!app.hasRequestDecorator('webhookContext')) app.decorateRequest('webhookContext', undefined);
}
