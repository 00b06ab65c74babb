import { randomUUID } from 'node:crypto';
import { type SpecEvent } from '@hookgate/core';
import { type Call } from '@hookgate/core/calls';
import { normalizeTimestamp } from '@hookgate/core/calls';

/**
 * The name under which a call's `integrations` object turns this destination on or off
 * (`{ All: false, 'Webhooks (Actions)': true }`); keys are case sensitive.
 *
 * @example
 * emulator.track({ userId: 'u1', event: 'E', integrations: { [ACTIONS_DESTINATION]: false } });
 */
export const ACTIONS_DESTINATION = 'Webhooks (Actions)';

/** Fields the tracking API reads from the envelope or sets itself; a call's own copy of them is not kept as sent. */
const SERVER_FIELDS = new Set([
  'type',
  'messageId',
  'timestamp',
  'originalTimestamp',
  'sentAt',
  'receivedAt',
  'context',
  'integrations',
  'writeKey',
]);

const iso = (ms: number) => new Date(ms).toISOString();

function stamp(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number' && !(value instanceof Date)) return undefined;
  return normalizeTimestamp(value);
}

/**
 * The whole Segment event built from a client's call, as Segment hands it to an Actions destination
 * (the Segment Spec's common fields). Where each field comes from:
 *
 * - the call's own fields (`userId`, `anonymousId`, `event`, `properties`, `traits`, `name`,
 *   `category`, `groupId`, `previousId` and any other key), deep-copied, in the order sent;
 * - `type`: the call's type;
 * - `messageId`: the call's, else one generated (`emu-<uuid>`), as the tracking API does;
 * - `timestamp`: the call's `timestamp` in UTC with milliseconds, else `receivedAt` (a server-side
 *   call's timestamp is used as given: no clock-skew correction);
 * - `originalTimestamp`: the call's `timestamp` as the client gave it (normalized), when it gave one;
 * - `sentAt`: the call's `sentAt` when the call carries one, else `receivedAt` (the intake reads
 *   `sentAt` off the request envelope);
 * - `receivedAt`: when the emulator received the call, on its clock;
 * - `context` and `integrations`: the call's (batch-level ones merged in by the intake), else `{}`.
 *
 * @example
 * const event = callToSpecEvent({ type: 'track', userId: 'u1', event: 'Order Completed' }, Date.parse('2026-11-25T10:00:00Z'));
 * // { userId: 'u1', event: 'Order Completed', type: 'track', messageId: 'emu-…', timestamp: '2026-11-25T10:00:00.000Z', sentAt: '…', receivedAt: '…', context: {}, integrations: {} }
 */
export function callToSpecEvent(call: Call, receivedMs: number): SpecEvent {
  const c = call;
  const event: Record<string, unknown> = {};
  for (const key of Object.keys(c)) {
    if (SERVER_FIELDS.has(key) || c[key] === undefined) continue;
    event[key] = c[key];
  }
  const receivedAt = iso(receivedMs);
  const original = stamp(c.timestamp);
  event.type = call.type;
  event.messageId = typeof c.messageId === 'string' && c.messageId.length > 0 ? c.messageId : `emu-${randomUUID()}`;
  event.timestamp = original ?? receivedAt;
  if (original !== undefined) event.originalTimestamp = original;
  event.sentAt = stamp(c.sentAt) ?? receivedAt;
  event.receivedAt = receivedAt;
  event.context = c.context ?? {};
  event.integrations = c.integrations ?? {};
  // A deep copy: the caller may change its object later, and mappings keep references into the event.
  return JSON.parse(JSON.stringify(event)) as SpecEvent;
}
