// The adapters' option types with destination: 'actions': checked by `tsc -p tsconfig.json`
// (expectTypeOf, @ts-expect-error) and run by vitest (the middlewares are created).
import Fastify from 'fastify';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { SpecTrackEvent } from '@hookgate/core';
import { hookgate as expressHookgate } from '@hookgate/express';
import { hookgateActions } from '@hookgate/fastify';
import { hookgate as honoHookgate } from '@hookgate/hono';

const secret = 'whsec_adapter_types';
const order = z.object({ orderId: z.string() });

describe('adapter option types for Webhooks (Actions)', () => {
  it('Express and Hono: on gets Spec events with the framework context; onPayload is typed by the schema', () => {
    const mw = expressHookgate({
      destination: 'actions',
      secret,
      on: {
        track: (event, { req }) => {
          expectTypeOf(event).toEqualTypeOf<SpecTrackEvent>();
          expectTypeOf(req.method).toEqualTypeOf<string>();
          // @ts-expect-error a misspelled field
          void event.evnt;
        },
      },
    });
    expressHookgate({
      destination: 'actions',
      secret,
      schema: order,
      onPayload: (p) => expectTypeOf(p).toEqualTypeOf<{ orderId: string }>(),
    });
    honoHookgate({
      destination: 'actions',
      secret,
      schema: order,
      onPayload: (p, { c }) => expectTypeOf(p.orderId).toEqualTypeOf<string>() && void c.req.method,
    });
    // @ts-expect-error delete is not a Segment event type
    expect(() => honoHookgate({ destination: 'actions', secret, on: { delete: () => undefined } })).toThrow(/delete/);
    // Classic stays classic.
    expressHookgate({ secret, on: { alias: (msg) => expectTypeOf(msg['Previous ID']).toEqualTypeOf<string>() } });
    expect(typeof mw).toBe('function');
  });

  it('Fastify: hookgateActions types on per Segment event type with { request, reply }', async () => {
    const app = Fastify();
    await app.register(hookgateActions, {
      path: '/segment',
      secret,
      on: { track: (event, { request }) => expectTypeOf(event.event).toEqualTypeOf<string>() && void request.method },
    });
    await expect(
      // @ts-expect-error onMessage is classic only
      app.register(hookgateActions, { path: '/other', secret, onMessage: () => undefined }).ready(),
    ).rejects.toThrow(/onPayload/);
    await app.close();
  });
});
