import type { MessageFacts } from './telemetry.js';

const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The facts of a message telemetry may record: its `type`, `messageId` and a track's `event`, each
 * only when it is a string. Nothing else of the message is read.
 *
 * @example
 * messageFacts({ type: 'track', messageId: 'm1', event: 'Order Completed', properties: { total: 12 } });
 * // { type: 'track', messageId: 'm1', event: 'Order Completed' }
 */
export function messageFacts(message: unknown): MessageFacts {
  if (message === null || typeof message !== 'object') return {};
  const { type, messageId, event } = message as Record<string, unknown>;
  return {
    type: textOf(type),
    messageId: textOf(messageId),
    event: type === 'track' ? textOf(event) : undefined,
  };
}
