/**
 * Per-destination switches carried by a call: destination name → on/off (or settings).
 * `All: false` turns every destination off unless its own key is `true`. Keys are case sensitive.
 *
 * @example
 * const integrations: Integrations = { All: false, Webhooks: true, Mixpanel: true };
 * isDestinationEnabled(integrations); // true
 */
export interface Integrations {
  All?: boolean;
  Webhooks?: boolean | Record<string, unknown>;
  [destination: string]: unknown;
}

/**
 * The name of this destination in an integrations object. Case sensitive: `webhooks` is another destination.
 *
 * @example
 * const onlyWebhooks: Integrations = { All: false, [WEBHOOKS_DESTINATION]: true };
 * isDestinationEnabled(onlyWebhooks, WEBHOOKS_DESTINATION); // true
 */
export const WEBHOOKS_DESTINATION = 'Webhooks';

/**
 * Decides whether a call with these integrations reaches a destination: every destination
 * is on by default; a key set to `true` (or to a settings object) turns its destination on; a key set
 * to `false` turns it off; `All: false` turns off every destination without a key of its own.
 *
 * @example
 * isDestinationEnabled({ All: false, Webhooks: true }); // true
 * isDestinationEnabled({ All: false, webhooks: true }); // false: keys are case sensitive
 */
export function isDestinationEnabled(integrations: unknown, destination: string = WEBHOOKS_DESTINATION): boolean {
  if (typeof integrations !== 'object' || integrations === null) return true;
  const own = (integrations as Record<string, unknown>)[destination];
  if (own === false) return false;
  if (own === true || (typeof own === 'object' && own !== null)) return true;
  return (integrations as Record<string, unknown>).All !== false;
}
