// createWorker's types for both destinations: checked by `tsc -p tsconfig.json` (expectTypeOf and
// expected-error directives). The workers are only declared inside functions that never run (no Redis here).
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import * as v from 'valibot';
import type { TrackMessage, WebhookMessage, SpecAliasEvent, SpecIdentifyEvent, SpecTrackEvent } from '@hookgate/core';
import { createWorker, type ActionsJobHandlers, type JobContext } from '../src/index.js';

const connection = { host: '127.0.0.1', port: 6379 };

describe('createWorker types', () => {
  it("destination: 'actions': on handlers get the Segment Spec event of their type; a typo is a compile error", () => {
    const declare = () =>
      createWorker('actions', {
        destination: 'actions',
        connection,
        on: {
          track: (event, ctx) => {
            expectTypeOf(event).toEqualTypeOf<SpecTrackEvent>();
            expectTypeOf(event.messageId).toEqualTypeOf<string>();
            expectTypeOf(event.event).toEqualTypeOf<string>();
            expectTypeOf(event.context?.library?.name).toEqualTypeOf<string | undefined>();
            expectTypeOf(ctx).toEqualTypeOf<JobContext>();
            // @ts-expect-error a misspelled field is not on the Segment track event
            void event.evnt;
            // @ts-expect-error classic field names (seen in the classic destination's messages) are not Spec fields
            void event['User ID'];
          },
          identify: (event) => expectTypeOf(event).toEqualTypeOf<SpecIdentifyEvent>(),
          alias: (event) => expectTypeOf(event.previousId).toEqualTypeOf<SpecAliasEvent['previousId']>(),
          // @ts-expect-error `delete` is a classic message type, not a Segment event type
          delete: () => undefined,
        },
        onPayload: (payload) => expectTypeOf(payload).toEqualTypeOf<Record<string, unknown>>(),
      });
    expect(typeof declare).toBe('function');
    const typo = () =>
      createWorker('actions', {
        destination: 'actions',
        connection,
        // @ts-expect-error a typo in a handler name
        on: { trak: () => undefined },
      });
    expect(typeof typo).toBe('function');
    const handlers: ActionsJobHandlers = { track: (e) => void e.properties };
    expect(handlers.track).toBeTypeOf('function');
  });

  it('a schema types onPayload (Zod, Valibot: any Standard Schema)', () => {
    const zodWorker = () =>
      createWorker('orders', {
        destination: 'actions',
        connection,
        schema: z.object({ orderId: z.string(), total: z.coerce.number() }),
        onPayload: (order) => {
          expectTypeOf(order).toEqualTypeOf<{ orderId: string; total: number }>();
          // @ts-expect-error not in the schema
          void order.orderID;
        },
      });
    const valibotWorker = () =>
      createWorker('orders', {
        destination: 'actions',
        connection,
        schema: v.object({ sku: v.string() }),
        onPayload: (item) => expectTypeOf(item).toEqualTypeOf<{ sku: string }>(),
      });
    expect([typeof zodWorker, typeof valibotWorker]).toEqual(['function', 'function']);
  });

  it('the classic worker is unchanged, and takes no Actions-only option', () => {
    const classic = () =>
      createWorker('webhooks', {
        connection,
        on: { track: (msg) => expectTypeOf(msg).toEqualTypeOf<TrackMessage>() },
        onMessage: (msg) => expectTypeOf(msg).toEqualTypeOf<WebhookMessage>(),
      });
    const mixed = () =>
      // @ts-expect-error onPayload needs destination: 'actions'
      createWorker('webhooks', {
        connection,
        onPayload: () => undefined,
      });
    const actionsOnMessage = () =>
      createWorker('webhooks', {
        destination: 'actions',
        connection,
        // @ts-expect-error an Actions worker's catch-all is onPayload
        onMessage: () => undefined,
      });
    expect([typeof classic, typeof mixed, typeof actionsOnMessage]).toEqual(['function', 'function', 'function']);
  });
});
