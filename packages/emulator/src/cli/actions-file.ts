import { readFileSync } from 'node:fs';
import type { WebhooksActionsSettings } from '../actions/actions-settings.js';
import { UsageError } from './usage-error.js';

/**
 * Reads `hookgate serve --actions FILE.json`: the Webhooks (Actions) subscriptions as Segment exports
 * them, either a JSON list of subscriptions or an object `{ subscriptions, sharedSecret?, enabled?,
 * batchWindowMs? }`. `--secret` signs them when the file sets no `sharedSecret`. The subscriptions
 * themselves are checked when the emulator is made (errors name `--actions FILE: subscriptions[i]…`).
 *
 * @example
 * const webhooksActions = readActionsFile('subscriptions.json', 's3cret');
 * createEmulator({ sources: [{ writeKey: 'wk', webhooksActions }] });
 */
export function readActionsFile(path: string, secret: string | undefined): WebhooksActionsSettings {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      'serve',
      `--actions ${path}: cannot read the file (${code ?? (error as Error).message}); give the path of a JSON file of subscriptions.`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      'serve',
      `--actions ${path}: not JSON (${(error as Error).message}); the file holds a list of subscriptions as Segment exports them.`,
    );
  }
  const settings: Record<string, unknown> = Array.isArray(value)
    ? { subscriptions: value }
    : typeof value === 'object' && value !== null
      ? { ...(value as Record<string, unknown>) }
      : {};
  if (!Array.isArray(settings.subscriptions))
    throw new UsageError(
      'serve',
      `--actions ${path}: expected a list of subscriptions [{ "subscribe": ..., "partnerAction": "send", "mapping": {...} }] or an object { "subscriptions": [...] }.`,
    );
  if (settings.sharedSecret === undefined && secret !== undefined) settings.sharedSecret = secret;
  if (settings.enabled === undefined) settings.enabled = true;
  return settings as unknown as WebhooksActionsSettings;
}
