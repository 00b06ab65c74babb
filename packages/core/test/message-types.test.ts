// Types narrow without casts: checked by `tsc -p tsconfig.json` (the expectTypeOf lines) and run by
// vitest (the runtime lines), so a wrong type fails the typecheck and a wrong value fails the test.
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  createReceiver,
  extraFields,
  fixtures,
  isWebhookMessage,
  safeParseMessage,
  type AliasMessage,
  type DeleteMessage,
  type MessageOf,
  type TrackMessage,
  type WebhookMessage,
} from '../src/index.js';
import { parseCall, type Call, type Integrations } from '../src/calls.js';
import { isAlias, isDelete, isTrack } from '../src/internal.js';

function summarize(msg: WebhookMessage): string {
  switch (msg.type) {
    case 'track':
      expectTypeOf(msg).toEqualTypeOf<TrackMessage>();
      expectTypeOf(msg.event).toEqualTypeOf<string>();
      return msg.event;
    case 'alias':
      expectTypeOf(msg['Previous ID']).toEqualTypeOf<string>();
      expectTypeOf(msg['User ID']).toEqualTypeOf<string>();
      return `${msg['Previous ID']}→${msg['User ID']}`;
    case 'group':
      expectTypeOf(msg.groupId).toEqualTypeOf<string>();
      return msg.groupId;
    case 'screen':
      expectTypeOf(msg.name).toEqualTypeOf<string>();
      expectTypeOf(msg.context?.device?.model).toEqualTypeOf<string | undefined>();
      return msg.name;
    case 'page':
      expectTypeOf(msg.properties?.url).toEqualTypeOf<string | undefined>();
      return msg.properties?.url ?? '';
    case 'delete':
      expectTypeOf(msg).toEqualTypeOf<DeleteMessage>();
      return msg.userId;
    case 'identify':
      expectTypeOf(msg.traits).toEqualTypeOf<Record<string, unknown> | undefined>();
      return msg.userId;
    default: {
      const never: never = msg;
      return never;
    }
  }
}

describe('message types', () => {
  it('narrow on `type` with no casts', () => {
    expect(Object.values(fixtures).map((m) => summarize(m as WebhookMessage))).toEqual([
      'https://app.example.com/pricing',
      'Home',
      'user_1001',
      'Order Completed',
      'anon_5e1f→user_1001',
      'acme_inc',
      'user_1001',
    ]);
  });

  it('alias has no userId, in the types too', () => {
    // @ts-expect-error an alias carries "User ID", never userId
    const bad: AliasMessage = { ...fixtures.alias, userId: 'user_1001' };
    expect(isAlias(bad)).toBe(false);
    const any = fixtures.alias as WebhookMessage;
    // @ts-expect-error not every message has a userId (alias has none): narrow on `type` first
    void any.userId;
    expect('userId' in any).toBe(false);
  });

  it('keep unknown extras, reachable through extraFields() typed unknown', () => {
    const msg = safeParseMessage(JSON.stringify({ ...fixtures.track, messageId: 'm1' }));
    if (!msg.success) throw msg.error;
    expectTypeOf(extraFields(msg.data).messageId).toEqualTypeOf<unknown>();
    expect(extraFields(msg.data).messageId).toBe('m1');
  });

  it('guards narrow an unknown value', () => {
    const value: unknown = JSON.parse(JSON.stringify(fixtures.alias));
    if (isAlias(value)) {
      expectTypeOf(value).toEqualTypeOf<AliasMessage>();
      expect(value['User ID']).toBe('user_1001');
    } else throw new Error('alias fixture should pass isAlias');
    const track: unknown = structuredClone(fixtures.track);
    expect(isTrack(track) && track.event).toBe('Order Completed');
    const del: unknown = structuredClone(fixtures.delete);
    if (isDelete(del)) expectTypeOf(del.timestamp).toEqualTypeOf<string>();
    if (isWebhookMessage(del)) expectTypeOf(del).toEqualTypeOf<WebhookMessage>();
    expectTypeOf<MessageOf<'track'>>().toEqualTypeOf<TrackMessage>();
  });

  it('typed receiver handlers get their narrowed message', () => {
    const receiver = createReceiver({
      secret: 'x',
      on: {
        track(msg, ctx) {
          expectTypeOf(msg).toEqualTypeOf<TrackMessage>();
          expectTypeOf(ctx.signal).toEqualTypeOf<AbortSignal>();
        },
        alias: (msg) => {
          expectTypeOf(msg['Previous ID']).toEqualTypeOf<string>();
        },
      },
      onMessage(msg) {
        expectTypeOf(msg).toEqualTypeOf<WebhookMessage>();
      },
    });
    expect(receiver.mode).toBe('handle');
  });

  it('calls narrow on `type` and carry Integrations', () => {
    const call: Call = parseCall(
      { userId: 'u1', event: 'Signed Up', integrations: { All: false, Webhooks: true } },
      { type: 'track' },
    );
    if (call.type === 'track') expectTypeOf(call.event).toEqualTypeOf<string>();
    if (call.type === 'alias') expectTypeOf(call.previousId).toEqualTypeOf<string>();
    expectTypeOf(call.integrations).toEqualTypeOf<Integrations | undefined>();
    const i: Integrations = { All: false, Webhooks: true, Mixpanel: { apiKey: 'k' } };
    expectTypeOf(i.All).toEqualTypeOf<boolean | undefined>();
    expect(call.type).toBe('track');
  });
});
