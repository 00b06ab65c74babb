// Webhooks (Actions) types: checked by `tsc -p tsconfig.json` (expectTypeOf, @ts-expect-error) and
// run by vitest (the receivers are created, so the options also pass the run-time checks).
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import * as v from 'valibot';
import { type } from 'arktype';
import type { StandardSchemaV1 as SpecPackageSchema } from '@standard-schema/spec';
import {
  createReceiver,
  isSpecEvent,
  type ActionsHandlerContext,
  type BatchElementInfo,
  type SpecEvent,
  type SpecExtras,
  type SpecAliasEvent,
  type SpecTrackEvent,
} from '../src/index.js';
import { specEventIssues } from '../src/internal.js';

const secret = 'whsec_types';

describe('Actions types', () => {
  it('on handlers get the Spec event of their type; a typo is a compile error', () => {
    const receiver = createReceiver({
      destination: 'actions',
      secret,
      on: {
        track: (e, ctx) => {
          expectTypeOf(e).toEqualTypeOf<SpecTrackEvent>();
          expectTypeOf(e.event).toEqualTypeOf<string>();
          expectTypeOf(e.messageId).toEqualTypeOf<string>();
          expectTypeOf(e.receivedAt).toEqualTypeOf<string>();
          expectTypeOf(e.anonymousId).toEqualTypeOf<string | null | undefined>();
          expectTypeOf(e.integrations).toEqualTypeOf<Record<string, unknown> | null | undefined>(); // optional fields may be null
          expectTypeOf(e.context?.library?.name).toEqualTypeOf<string | undefined>();
          expectTypeOf(ctx.batch).toEqualTypeOf<BatchElementInfo | undefined>();
          // @ts-expect-error a misspelled field is not on the event
          void e.evnt;
          // Fields beyond the Spec, through the escape hatch.
          expectTypeOf((e as SpecExtras<SpecTrackEvent>)['writeKey']).toEqualTypeOf<unknown>();
        },
        alias: (e) => {
          expectTypeOf(e).toEqualTypeOf<SpecAliasEvent>();
          expectTypeOf(e.previousId).toEqualTypeOf<string>();
          // @ts-expect-error Segment events spell it previousId; "Previous ID" is the classic message's
          void e['Previous ID'];
        },
        group: (e) => expectTypeOf(e.groupId).toEqualTypeOf<string>(),
      },
    });
    expect(receiver.mode).toBe('handle');
  });

  it('on keys are Segment event types; classic-only options are compile errors', () => {
    // @ts-expect-error delete is a classic message type, not a Segment event type
    expect(() => createReceiver({ destination: 'actions', secret, on: { delete: () => undefined } })).toThrow(/delete/);
    // @ts-expect-error onMessage is classic; Actions has onPayload
    expect(() => createReceiver({ destination: 'actions', secret, onMessage: () => undefined })).toThrow(/onPayload/);
    // @ts-expect-error a classic receiver has no onPayload
    expect(() => createReceiver({ secret, onPayload: () => undefined })).toThrow(/onPayload/);
    expect(() =>
      // @ts-expect-error insecureAcceptBatches takes true, false or 'including-unsigned'
      createReceiver({ destination: 'actions', secret, onPayload: () => undefined, insecureAcceptBatches: 'yes' }),
    ).toThrow();
  });

  it('onPayload is typed by the schema (Zod, Valibot, ArkType), else any JSON object', () => {
    createReceiver({
      destination: 'actions',
      secret,
      schema: z.object({ orderId: z.string(), total: z.number() }),
      onPayload: (p, ctx) => {
        expectTypeOf(p).toEqualTypeOf<{ orderId: string; total: number }>();
        expectTypeOf(ctx).toEqualTypeOf<ActionsHandlerContext>();
        // @ts-expect-error not in the schema
        void p.ordrId;
      },
    });
    createReceiver({
      destination: 'actions',
      secret,
      schema: v.object({ sku: v.string(), qty: v.number() }),
      onPayload: (p) => expectTypeOf(p).toEqualTypeOf<{ sku: string; qty: number }>(),
    });
    createReceiver({
      destination: 'actions',
      secret,
      schema: type({ email: 'string', 'age?': 'number' }),
      onPayload: (p) => {
        expectTypeOf(p.email).toEqualTypeOf<string>();
        expectTypeOf(p.age).toEqualTypeOf<number | undefined>();
      },
    });
    createReceiver({
      destination: 'actions',
      secret,
      onPayload: (p) => expectTypeOf(p).toEqualTypeOf<Record<string, unknown>>(),
    });
    // A schema typed with @standard-schema/spec's own interface fits core's inlined copy.
    const fromSpec: SpecPackageSchema<unknown, { id: string }> = z.object({ id: z.string() });
    createReceiver({
      destination: 'actions',
      secret,
      schema: fromSpec,
      onPayload: (p) => expectTypeOf(p).toEqualTypeOf<{ id: string }>(),
    });
  });

  it('specEventIssues / isSpecEvent check a whole event at run time and narrow it', () => {
    const value: unknown = {
      type: 'group',
      groupId: 'acme',
      messageId: 'm1',
      userId: 'u1',
      timestamp: '2026-11-25T10:00:00.000Z',
      receivedAt: '2026-11-25T10:00:00.100Z',
    };
    if (!isSpecEvent(value)) throw new Error('a whole group event');
    expectTypeOf(value).toEqualTypeOf<SpecEvent>();
    expect(value.type === 'group' && value.groupId).toBe('acme');
    expect(specEventIssues({ type: 'alias', messageId: 'm', timestamp: 't', receivedAt: 'r', userId: 'u' })).toEqual([
      { path: '/previousId', message: 'is required (string) on a whole alias event' },
    ]);
    expect(
      specEventIssues({ type: 'track', event: 'E', messageId: 'm', timestamp: 't', receivedAt: 'r' }).map(
        (i) => i.path,
      ),
    ).toEqual(['/userId']);
  });
});
