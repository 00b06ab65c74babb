import { type WebhookMessage } from '@hookgate/core';
import { sortedJson } from '@hookgate/core/internal';

/** Key order of the bodies sent. */
export type Serialization = 'insertion' | 'sorted';

/**
 * The body text of a message: `insertion` is `JSON.stringify` (what the real sender signs); `sorted`
 * orders keys recursively (core's `sortedJson`, the form `verify` also tries).
 *
 * @example
 * serializeMessage(fixtures.track, 'sorted'); // '{"event":"Order Completed",...,"version":1}'
 */
export function serializeMessage(message: WebhookMessage, mode: Serialization): string {
  return mode === 'sorted' ? sortedJson(message) : JSON.stringify(message);
}
