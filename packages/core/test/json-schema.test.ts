// The exported JSON Schemas: plain JSON, `required` lists as the seed gives them, and in agreement
// with the runtime validator (checked with an independent schema walker, not with TypeBox).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixtures, messageIssues, messageJsonSchemas, webhookMessageJsonSchema } from '../src/index.js';
import { ISO_8601_TIMESTAMP } from '../src/internal.js';
import { checkJsonSchema } from './helpers/json-schema-check.js';
import { SEED_FIELDS, SEED_PAGE_PROPERTIES, SEED_REQUIRED, SEED_SCREEN_CONTEXT, SEED_TYPES } from './helpers/seed.js';

type Obj = Record<string, unknown>;
const props = (schema: Obj) => schema.properties as Record<string, Obj>;

function symbolsIn(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  return (
    Object.getOwnPropertySymbols(value).length + Object.values(value).reduce<number>((n, v) => n + symbolsIn(v), 0)
  );
}

describe('messageJsonSchemas', () => {
  it('has one schema per type', () => {
    expect(Object.keys(messageJsonSchemas).sort()).toEqual([...SEED_TYPES].sort());
  });

  describe.each(SEED_TYPES)('%s', (type) => {
    const schema = messageJsonSchemas[type];

    it('is plain JSON: survives a JSON round trip, no symbol keys, a draft 2020-12 $schema and an $id', () => {
      expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
      expect(symbolsIn(schema)).toBe(0);
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(schema.$id).toBe(`https://hookgate.dev/schemas/${type}.json`);
      expect(schema.type).toBe('object');
    });

    it('requires exactly the seed’s required fields and describes every field the seed lists', () => {
      expect([...(schema.required as string[])].sort()).toEqual([...SEED_REQUIRED[type]].sort());
      for (const [field, kind] of Object.entries(SEED_FIELDS[type])) {
        expect(props(schema)[field], `${type}.${field}`).toBeDefined();
        expect(props(schema)[field]!.type).toBe(kind);
      }
      expect(props(schema).type!.const).toBe(type);
      if (type !== 'delete') expect(props(schema).version!.const).toBe(1);
    });

    it('does not close the object: unknown extra fields stay valid', () => {
      expect(schema.additionalProperties).toBeUndefined();
      expect(checkJsonSchema(schema, { ...fixtures[type], somethingNew: { a: 1 } })).toEqual([]);
    });

    it('accepts its fixture and refuses every fixture of another type', () => {
      expect(checkJsonSchema(schema, fixtures[type])).toEqual([]);
      for (const other of SEED_TYPES) {
        if (other !== type)
          expect(checkJsonSchema(schema, fixtures[other]).length, `${type} schema on ${other}`).toBeGreaterThan(0);
      }
    });

    it.each(SEED_REQUIRED[type])('refuses the fixture without %s, as the validator does', (field) => {
      const msg = structuredClone(fixtures[type]) as Obj;
      delete msg[field];
      expect(checkJsonSchema(schema, msg)).toContain(`$.${field}: required`);
      expect(messageIssues(msg).length).toBeGreaterThan(0);
    });
  });

  it('types the page properties and the screen context as the seed gives them', () => {
    const page = props(props(messageJsonSchemas.page).properties!);
    expect(Object.keys(page).sort()).toEqual([...SEED_PAGE_PROPERTIES].sort());
    for (const k of SEED_PAGE_PROPERTIES) expect(page[k]!.type).toBe('string');
    const ctx = props(props(messageJsonSchemas.screen).context!);
    for (const [part, keys] of Object.entries(SEED_SCREEN_CONTEXT)) {
      expect(Object.keys(props(ctx[part]!)).sort()).toEqual([...keys].sort());
      for (const k of keys) expect(props(ctx[part]!)[k]!.type).toBe('string');
    }
  });

  it('uses the validator’s timestamp pattern (Go’s +0000 accepted)', () => {
    const pattern = props(messageJsonSchemas.track).timestamp!.pattern;
    expect(pattern).toBe(ISO_8601_TIMESTAMP.source);
    expect(
      checkJsonSchema(messageJsonSchemas.track, { ...fixtures.track, timestamp: '2009-11-10T23:00:00+0000' }),
    ).toEqual([]);
    expect(checkJsonSchema(messageJsonSchemas.track, { ...fixtures.track, timestamp: 'yesterday' })).toHaveLength(1);
  });

  it('refuses an alias that carries userId, as the validator does', () => {
    const alias = { ...fixtures.alias, userId: 'user_1001' };
    expect(messageIssues(alias).map((i) => i.path)).toEqual(['$.userId']);
    expect(checkJsonSchema(messageJsonSchemas.alias, alias).length).toBeGreaterThan(0);
  });

  it('agrees with the validator on randomly broken messages', () => {
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
      'extra',
    );
    const value = fc.oneof(
      fc.jsonValue(),
      fc.constantFrom(1, 'page', '2026-01-01T00:00:00.000Z', '2026-01-01', {}, { url: 3 }, { device: { model: 1 } }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...SEED_TYPES), field, value, fc.boolean(), (type, key, v, remove) => {
        const msg = structuredClone(fixtures[type]) as Obj;
        if (remove) delete msg[key];
        else msg[key] = v;
        const bySchema = checkJsonSchema(messageJsonSchemas[type], msg).length === 0;
        const byValidator = messageIssues(msg).length === 0;
        // The schema of one type cannot know that `type` now names another; compare on the same type only.
        if (msg.type === type) expect(bySchema).toBe(byValidator);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('webhookMessageJsonSchema', () => {
  it('is a oneOf of the seven schemas that each fixture matches exactly once', () => {
    const schema = webhookMessageJsonSchema();
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
    expect((schema.oneOf as Obj[]).map((s) => props(s).type!.const)).toEqual([...SEED_TYPES]);
    for (const t of SEED_TYPES) expect(checkJsonSchema(schema, fixtures[t])).toEqual([]);
    expect(checkJsonSchema(schema, { type: 'track' })).toEqual(['$: matches 0 of oneOf, expected exactly 1']);
  });
});
