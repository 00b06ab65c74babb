import { isDestinationEnabled, WEBHOOKS_DESTINATION, type Call } from '@hookgate/core/calls';
import type { ResolvedSource } from './source-settings.js';

/**
 * Why the source's Webhooks destination cannot take anything right now (not connected, the
 * enabled toggle off, no endpoints), or `undefined` when it can.
 *
 * @example
 * destinationBlock(source); // 'the Webhooks destination is disabled for this source (webhooks.enabled: false)'
 */
export function destinationBlock(source: ResolvedSource): string | undefined {
  if (!source.connected) return 'the source has no Webhooks destination (its webhooks setting is not set)';
  if (!source.enabled) return 'the Webhooks destination is disabled for this source (webhooks.enabled: false)';
  if (source.endpoints.length === 0) return 'the Webhooks destination has no endpoints (webhooks.endpoints is empty)';
  return undefined;
}

/**
 * Why a received call does not go to the Webhooks destination, or `undefined` when it
 * does: the source's schema blocks the track event; the call's `integrations` turn the destination
 * off (`Webhooks: false`, or `All: false` without `Webhooks: true`; keys are case sensitive); or the
 * destination itself is off.
 *
 * @example
 * routeCall({ type: 'track', userId: 'u1', event: 'E', integrations: { All: false } }, source);
 * // 'integrations: All is false and Webhooks is not true'
 */
export function routeCall(call: Call, source: ResolvedSource): string | undefined {
  if (call.type === 'track' && source.blockedEvents.has(call.event)) {
    return `blocked by the source's schema: track event ${JSON.stringify(call.event)} is in schema.blockedEvents`;
  }
  const integrations = call.integrations;
  if (!isDestinationEnabled(integrations, WEBHOOKS_DESTINATION)) {
    const i = integrations as Record<string, unknown>;
    if (i[WEBHOOKS_DESTINATION] === false) return 'integrations: Webhooks is false';
    const lower = Object.keys(i).find((k) => k !== WEBHOOKS_DESTINATION && k.toLowerCase() === 'webhooks');
    return (
      'integrations: All is false and Webhooks is not true' +
      (lower ? ` (keys are case sensitive: ${JSON.stringify(lower)} names another destination)` : '')
    );
  }
  return destinationBlock(source);
}
