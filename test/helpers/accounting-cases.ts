// The messages of the "every message accounted for" tables, shared by the receivers'
// (test/adapters/every-message-accounted.test.ts) and the worker's (packages/bullmq/test/every-job-accounted.test.ts):
// each a new messageId (no dedupe; what ran is found by it), against the plan public-api-rules.json,
// which has "Order Completed" (v2: total a number), "Signed Up" (plan: free | pro) and a GROUP rule
// (traits.name required).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fixture, type WebhookMessage } from '@hookgate/core';
import { segmentEvent } from './segment-actions-sender.js';

/** The tracking plan of the tables, as Segment's Public API exports it. */
export const PLAN: unknown = JSON.parse(
  readFileSync(new URL('../fixtures/tracking-plans/public-api-rules.json', import.meta.url), 'utf8'),
);

/** Classic messages by what they are to the plan. */
export const MESSAGES = {
  planned: () =>
    fixture('track', { messageId: randomUUID(), event: 'Order Completed', properties: { order_id: 'o1', total: 12 } }),
  'planned, not keyed': () =>
    fixture('track', { messageId: randomUUID(), event: 'Signed Up', properties: { plan: 'pro' } }),
  unplanned: () => fixture('track', { messageId: randomUUID(), event: 'Coupon Applied', properties: { code: 'X' } }),
  violating: () =>
    fixture('track', {
      messageId: randomUUID(),
      event: 'Order Completed',
      properties: { order_id: 'o2', total: '12' },
    }),
  'violating group': () => fixture('group', { messageId: randomUUID(), groupId: 'g1', traits: { employees: 3 } }),
  // An event named like a property every object has: no handler of `on.track` may be found for it.
  'named __proto__': () => fixture('track', { messageId: randomUUID(), event: '__proto__', properties: {} }),
  'named constructor': () => fixture('track', { messageId: randomUUID(), event: 'constructor', properties: {} }),
} satisfies Record<string, () => WebhookMessage & { messageId: string }>;

/** The name of a message of the tables. */
export type MessageName = keyof typeof MESSAGES;

/** The same, as whole Segment events (what a Webhooks (Actions) receiver gets). */
export const EVENTS: Partial<Record<MessageName, () => Record<string, unknown>>> = {
  planned: () => segmentEvent('track', { event: 'Order Completed', properties: { order_id: 'o1', total: 12 } }),
  'planned, not keyed': () => segmentEvent('track', { event: 'Signed Up', properties: { plan: 'pro' } }),
  unplanned: () => segmentEvent('track', { event: 'Coupon Applied', properties: { code: 'X' } }),
  violating: () => segmentEvent('track', { event: 'Order Completed', properties: { order_id: 'o2', total: '12' } }),
  'violating group': () => segmentEvent('group', { traits: { employees: 3 } }),
};

/**
 * What ran for each message, by its messageId; `record(what)` is a handler that notes it.
 *
 * @example
 * const { ran, record } = ranRecorder();
 * createReceiver({ secret, on: { track: record('handler') } });
 */
export function ranRecorder(): { ran: Map<string, string>; record: (what: string) => (msg: unknown) => void } {
  const ran = new Map<string, string>();
  const record = (what: string) => (msg: unknown) =>
    void ran.set(String((msg as { messageId?: unknown }).messageId), what);
  return { ran, record };
}
