// Message types are exact: checked by `tsc -p tsconfig.json` (the @ts-expect-error and expectTypeOf
// lines: an unused @ts-expect-error fails the typecheck, so a type that lets a typo through fails
// it too) and run by vitest (the runtime lines).
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  extraFields,
  fixture,
  fixtures,
  messageJsonSchemas,
  parseMessage,
  type AliasMessage,
  type MessageContext,
  type TrackMessage,
  type WebhookMessage,
  type PageProperties,
} from '../src/index.js';

const wire = JSON.stringify({
  ...fixtures.track,
  messageId: 'm-7',
  anonymousId: 'anon_5e1f',
  context: { ip: '203.0.113.7' },
});

describe('exact message types', () => {
  it('reject unknown top-level fields on a narrowed message', () => {
    const m = parseMessage(wire);
    if (m.type !== 'track') throw new Error('expected a track message');
    expectTypeOf(m).toEqualTypeOf<TrackMessage>();
    expectTypeOf(m.event).toEqualTypeOf<string>();
    // @ts-expect-error a typo of `event` does not compile
    expect(m.evnt).toBeUndefined();
    // @ts-expect-error a field beyond the documented ones is not readable without the escape hatch
    expect(m.messageId).toBe('m-7');
  });

  it('alias has no userId to read', () => {
    const alias: AliasMessage = fixture('alias');
    // @ts-expect-error an alias carries "User ID" (and "Previous ID"), never userId
    expect(alias.userId).toBeUndefined();
    expectTypeOf(alias['User ID']).toEqualTypeOf<string>();
    // @ts-expect-error nor can one be written into an alias
    const bad: AliasMessage = { ...fixtures.alias, userId: 'user_1001' };
    expect(bad.type).toBe('alias');
  });

  it('keep properties, traits and context open', () => {
    const track = fixture('track');
    expectTypeOf(track.properties).toEqualTypeOf<Record<string, unknown> | undefined>();
    expect(track.properties?.['orderId']).toBe('ord_77');
    const identify = fixture('identify');
    expectTypeOf(identify.traits).toEqualTypeOf<Record<string, unknown> | undefined>();
    expect(identify.traits?.['plan']).toBe('premium');
    const page = fixture('page');
    expectTypeOf(page.properties).toEqualTypeOf<PageProperties | undefined>();
    expectTypeOf(page.properties!.url).toEqualTypeOf<string | undefined>();
    expectTypeOf(page.properties!['screenWidth']).toEqualTypeOf<unknown>();
    const m = parseMessage(wire);
    if (m.type === 'delete') throw new Error('expected a track message');
    expectTypeOf(m.context).toEqualTypeOf<MessageContext | undefined>();
    expect(m.context?.['ip']).toBe('203.0.113.7');
  });

  it('narrowing by type still works, and reaches every member', () => {
    const names = (msg: WebhookMessage): string => {
      switch (msg.type) {
        case 'track':
          return msg.event;
        case 'screen':
          return msg.name;
        case 'group':
          return msg.groupId;
        case 'alias':
          return msg['User ID'];
        case 'page':
        case 'identify':
        case 'delete':
          return msg.userId;
        default: {
          const never: never = msg;
          return never;
        }
      }
    };
    expect(Object.values(fixtures).map((m) => names(m as WebhookMessage))).toEqual([
      'user_1001',
      'Home',
      'user_1001',
      'Order Completed',
      'user_1001',
      'acme_inc',
      'user_1001',
    ]);
  });

  it('extraFields() is the one typed escape hatch: every field beyond the type, typed unknown', () => {
    const m = parseMessage(wire);
    const extras = extraFields(m);
    expectTypeOf(extras['messageId']).toEqualTypeOf<unknown>();
    expect(extras).toEqual({ messageId: 'm-7', anonymousId: 'anon_5e1f' });
    expect(extraFields(fixture('alias'))).toEqual({});
    // Extras added to a fixture stay typed on the result; documented fields are still checked.
    const withId = fixture('track', { messageId: 'm-8' });
    expectTypeOf(withId.messageId).toEqualTypeOf<'m-8'>();
    // @ts-expect-error a documented field keeps its type in overrides
    fixture('track', { event: 42 });
  });

  it('the types, the validator and the JSON Schema name the same fields', () => {
    const keys = (t: keyof typeof messageJsonSchemas) =>
      Object.keys((messageJsonSchemas[t] as { properties: Record<string, unknown> }).properties).sort();
    expect(keys('track')).toEqual(['context', 'event', 'properties', 'timestamp', 'type', 'userId', 'version']);
    // alias: the schema says "no userId" (`not: {}`); the type simply has none.
    expect(keys('alias')).toContain('userId');
    expect(Object.keys(fixtures.alias).sort()).toEqual(['Previous ID', 'User ID', 'timestamp', 'type', 'version']);
  });
});
