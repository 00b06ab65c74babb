// Messages (seed §2.2): fixtures checked against the seed's tables field by field, and the validator
// (`parseMessage`, `safeParseMessage`, `messageIssues`, guards) checked on valid and broken messages.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MESSAGE_TYPES,
  ValidationError,
  allFixtures,
  extraFields,
  fixture,
  fixtures,
  isMessageOfType,
  isWebhookMessage,
  messageIssues,
  parseMessage,
  safeParseMessage,
  type MessageType,
} from '../src/index.js';
import { isAlias, isDelete, isGroup, isIdentify, isPage, isScreen, isTrack } from '../src/internal.js';
import {
  SEED_FIELDS,
  SEED_PAGE_PROPERTIES,
  SEED_REQUIRED,
  SEED_SCREEN_CONTEXT,
  SEED_TIMESTAMP,
  SEED_TYPES,
  kindOf,
  pathOf,
} from './helpers/seed.js';

const clone = <T>(v: T): Record<string, unknown> => structuredClone(v) as Record<string, unknown>;

describe('the seven message types', () => {
  it('are exactly the seed’s types, in its order', () => {
    expect([...MESSAGE_TYPES]).toEqual([...SEED_TYPES]);
    expect(Object.keys(fixtures)).toEqual([...SEED_TYPES]);
  });
});

describe('fixtures against the seed’s §2.2 tables', () => {
  describe.each(SEED_TYPES)('%s', (type) => {
    const msg = fixtures[type] as unknown as Record<string, unknown>;

    it('carries exactly the fields the seed lists for the type, each of its JSON kind', () => {
      expect(Object.keys(msg).sort()).toEqual(Object.keys(SEED_FIELDS[type]).sort());
      for (const [field, kind] of Object.entries(SEED_FIELDS[type])) {
        expect(kindOf(msg[field]), `${type}.${field}`).toBe(kind);
      }
    });

    it('has type, version, userId and timestamp as the common-fields table says', () => {
      expect(msg.type).toBe(type);
      if (type === 'delete') expect('version' in msg).toBe(false);
      else expect(msg.version).toBe(1);
      if (type === 'alias') expect('userId' in msg).toBe(false);
      else expect(typeof msg.userId === 'string' && msg.userId.length > 0).toBe(true);
      expect(msg.timestamp).toMatch(SEED_TIMESTAMP);
      expect(new Date(msg.timestamp as string).toISOString()).toBe(msg.timestamp);
    });

    it('validates, also with strict timestamps', () => {
      expect(messageIssues(msg)).toEqual([]);
      expect(messageIssues(msg, { strictTimestamps: true })).toEqual([]);
      expect(parseMessage(JSON.stringify(msg))).toEqual(msg);
    });
  });

  it('page properties use only the recognized keys, all strings', () => {
    const props = fixtures.page.properties as Record<string, unknown>;
    expect(Object.keys(props).sort()).toEqual([...SEED_PAGE_PROPERTIES].sort());
    for (const v of Object.values(props)) expect(typeof v).toBe('string');
  });

  it('screen carries a name and the context shape device {model, type}, os {name, version}, app {build, name, version}, all strings', () => {
    expect(fixtures.screen.name).toEqual(expect.any(String));
    const ctx = fixtures.screen.context as Record<string, Record<string, unknown>>;
    expect(Object.keys(ctx).sort()).toEqual(Object.keys(SEED_SCREEN_CONTEXT).sort());
    for (const [part, keys] of Object.entries(SEED_SCREEN_CONTEXT)) {
      expect(Object.keys(ctx[part]!).sort(), part).toEqual([...keys].sort());
      for (const k of keys) expect(typeof ctx[part]![k], `${part}.${k}`).toBe('string');
    }
  });

  it('identify traits hold e-mail, name, plan and a count-style value', () => {
    const traits = fixtures.identify.traits as Record<string, unknown>;
    expect(traits.email).toMatch(/^[^@\s]+@[^@\s]+$/);
    expect(traits.name).toEqual(expect.any(String));
    expect(traits.plan).toEqual(expect.any(String));
    expect(Object.values(traits).some((v) => Number.isInteger(v))).toBe(true);
  });

  it('track has an event name and properties; group has groupId, userId and traits', () => {
    expect(fixtures.track.event.length).toBeGreaterThan(0);
    expect(kindOf(fixtures.track.properties)).toBe('object');
    expect(fixtures.group.groupId.length).toBeGreaterThan(0);
    expect(kindOf(fixtures.group.traits)).toBe('object');
  });

  it('alias holds the previous and the new id under "Previous ID" and "User ID", with the spaces', () => {
    expect(JSON.stringify(fixtures.alias)).toContain('"Previous ID":');
    expect(JSON.stringify(fixtures.alias)).toContain('"User ID":');
    expect(fixtures.alias['Previous ID']).not.toBe(fixtures.alias['User ID']);
  });

  it('delete keeps only type, userId and timestamp', () => {
    expect(Object.keys(fixtures.delete).sort()).toEqual(['timestamp', 'type', 'userId']);
  });

  it('are frozen; fixture() and allFixtures() hand out fresh mutable copies', () => {
    expect(() => {
      (fixtures.track as { event: string }).event = 'changed';
    }).toThrow(TypeError);
    expect(() => {
      (fixtures.track.properties as Record<string, unknown>).x = 1;
    }).toThrow(TypeError);
    const copy = fixture('track', { event: 'Signed Up' });
    expect(copy.event).toBe('Signed Up');
    expect(copy.userId).toBe(fixtures.track.userId);
    (copy.properties as Record<string, unknown>).extra = 1;
    expect((fixtures.track.properties as Record<string, unknown>).extra).toBeUndefined();
    const all = allFixtures();
    expect(all.map((m) => m.type)).toEqual([...SEED_TYPES]);
    (all[0] as { userId: string }).userId = 'mutated';
    expect(fixtures.page.userId).not.toBe('mutated');
  });
});

describe('messageIssues / parseMessage: required fields', () => {
  const cases = SEED_TYPES.flatMap((type) => SEED_REQUIRED[type].map((field) => [type, field] as const));

  it.each(cases)('%s without %s → one issue at its JSON path', (type, field) => {
    const msg = clone(fixtures[type]);
    delete msg[field];
    const issues = messageIssues(msg);
    if (field === 'type') {
      expect(issues).toEqual([{ path: '$.type', message: expect.stringContaining('is required') }]);
      return;
    }
    expect(issues).toEqual([{ path: pathOf(field), message: 'is required' }]);
    const r = safeParseMessage(msg);
    expect(r.success).toBe(false);
  });

  it.each(SEED_TYPES)('%s: the optional payload objects may be absent', (type) => {
    const msg = clone(fixtures[type]);
    for (const field of Object.keys(SEED_FIELDS[type])) if (!SEED_REQUIRED[type].includes(field)) delete msg[field];
    expect(messageIssues(msg)).toEqual([]);
  });

  it('lists every problem at once, each with its path, in the thrown error', () => {
    const bad = { type: 'track', version: 2, userId: 42, properties: [], context: { device: { model: 7 } } };
    let error: unknown;
    try {
      parseMessage(bad);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    const issues = (error as ValidationError).issues;
    expect(issues.map((i) => i.path).sort()).toEqual(
      ['$.version', '$.userId', '$.timestamp', '$.event', '$.properties', '$.context.device.model'].sort(),
    );
    expect(issues.find((i) => i.path === '$.version')!.message).toBe('must be 1');
    expect(issues.find((i) => i.path === '$.userId')!.message).toBe('must be a string (got number 42)');
    expect(issues.find((i) => i.path === '$.properties')!.message).toBe('must be an object (got an array)');
    for (const i of issues) expect((error as Error).message).toContain(`${i.path}: ${i.message}`);
    expect((error as Error).name).toBe('ValidationError');
  });

  it('locates nested problems: page properties and alias keys', () => {
    const page = clone(fixtures.page);
    (page.properties as Record<string, unknown>).url = 5;
    expect(messageIssues(page)).toEqual([{ path: '$.properties.url', message: 'must be a string (got number 5)' }]);
    const alias = clone(fixtures.alias);
    alias['Previous ID'] = null;
    expect(messageIssues(alias)).toEqual([{ path: '$["Previous ID"]', message: 'must be a string (got null)' }]);
  });

  it('refuses an alias that carries userId, naming the field', () => {
    const alias = { ...clone(fixtures.alias), userId: 'user_1001' };
    const issues = messageIssues(alias);
    expect(issues).toHaveLength(1);
    expect(issues[0]!.path).toBe('$.userId');
    expect(issues[0]!.message).toContain('User ID');
  });

  it('refuses a non-object, an unknown type, a missing type', () => {
    expect(messageIssues([])).toEqual([{ path: '$', message: 'must be a JSON object (got an array)' }]);
    expect(messageIssues('x')).toEqual([{ path: '$', message: 'must be a JSON object (got string "x")' }]);
    expect(messageIssues(null)[0]!.path).toBe('$');
    expect(messageIssues({ type: 'Track' })[0]).toEqual({
      path: '$.type',
      message: expect.stringContaining('must be one of page, screen'),
    });
    expect(messageIssues({ userId: 'u' })[0]!.message).toContain('is required');
  });
});

describe('unknown extra fields are kept', () => {
  it('at the top level and inside context, properties and traits, unchanged', () => {
    const input = {
      ...clone(fixtures.track),
      messageId: 'm-1',
      anonymousId: 'anon-1',
      receivedAt: '2026-11-21T12:00:01.000Z',
      context: {
        ip: '203.0.113.9',
        library: { name: 'analytics-go', version: '2.0' },
        device: { model: 'x', extra: true },
      },
      properties: { nested: { deep: [1, { a: null }] } },
    };
    const text = JSON.stringify(input);
    const parsed = parseMessage(text);
    expect(parsed).toEqual(input);
    expect(JSON.stringify(parsed)).toBe(text);
    expect(extraFields(parsed).messageId).toBe('m-1');
  });

  it('on delete too (validated as delete, extras kept)', () => {
    const input = { ...clone(fixtures.delete), requestId: 'r-9' };
    expect(parseMessage(input)).toEqual(input);
  });
});

describe('timestamps: wide by default, exact when strict', () => {
  const withTs = (timestamp: string) => ({ ...clone(fixtures.identify), timestamp });

  it.each([
    '2009-11-10T23:00:00+0000', // Go's form
    '2009-11-10T23:00:00+01:00',
    '2009-11-10T23:00:00Z',
    '2009-11-10T23:00:00.123456Z',
    '2009-11-10T23:00Z',
  ])('accepts %s by default and refuses it when strict', (ts) => {
    expect(messageIssues(withTs(ts))).toEqual([]);
    const strict = messageIssues(withTs(ts), { strictTimestamps: true });
    expect(strict).toHaveLength(1);
    expect(strict[0]!.path).toBe('$.timestamp');
    expect(strict[0]!.message).toContain('UTC with milliseconds');
  });

  it.each(['yesterday', '2009-11-10', '2009-11-10T23:00:00', '2009-11-10 23:00:00Z', ''])(
    'refuses %j in both modes with a message naming the expected form',
    (ts) => {
      const issues = messageIssues(withTs(ts));
      expect(issues).toEqual([{ path: '$.timestamp', message: expect.stringContaining('ISO 8601') }]);
      expect(messageIssues(withTs(ts), { strictTimestamps: true })[0]!.path).toBe('$.timestamp');
    },
  );
});

describe('parse inputs and failures', () => {
  it('reads text, UTF-8 bytes and parsed values alike', () => {
    const text = JSON.stringify(fixtures.track);
    expect(parseMessage(text)).toEqual(fixtures.track);
    expect(parseMessage(new TextEncoder().encode(text))).toEqual(fixtures.track);
    expect(parseMessage(structuredClone(fixtures.track))).toEqual(fixtures.track);
    expect(parseMessage(new TextEncoder().encode(text)).type).toBe('track');
  });

  it('parseMessage throws SyntaxError on bad JSON; safeParseMessage reports it at $', () => {
    expect(() => parseMessage('{"type":')).toThrow(SyntaxError);
    const r = safeParseMessage('{"type":');
    expect(r.success).toBe(false);
    if (!r.success)
      expect(r.error.issues[0]).toEqual({ path: '$', message: expect.stringContaining('is not valid JSON') });
  });

  it('safeParseMessage returns the message on success', () => {
    const r = safeParseMessage(JSON.stringify(fixtures.group));
    expect(r).toEqual({ success: true, data: fixtures.group });
  });

  it('safeParseMessage never throws, on any value, text or bytes', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything({
            withBigInt: true,
            withBoxedValues: true,
            withMap: true,
            withSet: true,
            withTypedArray: true,
            withNullPrototype: true,
            withSparseArray: true,
          }),
          fc.string(),
          fc.json(),
          fc.uint8Array(),
        ),
        (input) => {
          const r = safeParseMessage(input);
          expect(typeof r.success).toBe('boolean');
          if (!r.success) expect(r.error.issues.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('safeParseMessage never throws on broken variants of real messages', () => {
    const field = fc.constantFrom(
      'version',
      'type',
      'userId',
      'timestamp',
      'event',
      'name',
      'groupId',
      'Previous ID',
      'User ID',
      'properties',
      'context',
      'traits',
    );
    fc.assert(
      fc.property(fc.constantFrom(...SEED_TYPES), field, fc.anything({ withBigInt: true }), (type, key, value) => {
        const msg = { ...clone(fixtures[type]), [key]: value };
        const r = safeParseMessage(msg);
        expect(r.success).toBe(messageIssues(msg).length === 0);
      }),
      { numRuns: 500 },
    );
  });
});

describe('guards', () => {
  const guards: Record<MessageType, (v: unknown) => boolean> = {
    page: isPage,
    screen: isScreen,
    identify: isIdentify,
    track: isTrack,
    alias: isAlias,
    group: isGroup,
    delete: isDelete,
  };

  it.each(SEED_TYPES)('is%s accepts its own fixture only', (type) => {
    for (const other of SEED_TYPES) {
      expect(guards[type](fixtures[other]), `${type} guard on ${other}`).toBe(type === other);
      expect(isMessageOfType(fixtures[other], type)).toBe(type === other);
    }
    expect(isWebhookMessage(fixtures[type])).toBe(true);
  });

  it('checks the whole shape, not only the type', () => {
    expect(isTrack({ type: 'track' })).toBe(false);
    expect(isAlias({ ...clone(fixtures.alias), userId: 'u' })).toBe(false);
    expect(isWebhookMessage({ ...clone(fixtures.page), version: '1' })).toBe(false);
    expect(isWebhookMessage(null)).toBe(false);
    expect(isWebhookMessage('{"type":"page"}')).toBe(false);
  });
});
