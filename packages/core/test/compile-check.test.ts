// The plain JSON Schemas and their checks must answer exactly what TypeBox answered before them, on
// every schema used: the same JSON documents, the same yes/no, the same issues (paths, wording, order).
// The reference is the schemas as TypeBox built them (helpers/typebox-reference.ts, a dev dependency).
import { Value } from '@sinclair/typebox/value';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixtures, messageSchemas } from '../src/index.js';
import { callSchemas } from '../src/calls.js';
import { strictMessageSchemas } from '../src/internal.js';
import { collectIssues } from '../src/messages/collect-issues.js';
import { compileCheck } from '../src/messages/compile-check.js';
import {
  referenceCallSchemas,
  referenceIssues,
  referenceMessageSchemas,
  referenceStrictMessageSchemas,
} from './helpers/typebox-reference.js';

const pairs = (ours: Record<string, object>, theirs: Record<string, unknown>, label: string) =>
  Object.entries(ours).map(([k, s]) => [`${label} ${k}`, s, theirs[k]] as const);
const schemas = [
  ...pairs(messageSchemas, referenceMessageSchemas, 'message'),
  ...pairs(strictMessageSchemas, referenceStrictMessageSchemas, 'strict'),
  ...pairs(callSchemas, referenceCallSchemas, 'call'),
];

// Values near the valid ones: each fixture with one field replaced, removed, or added.
const fieldValue = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom(
    1,
    '1',
    'track',
    'alias',
    '2026-11-21T12:00:00.000Z',
    '2009-11-10T23:00:00+0000',
    'x',
    undefined,
    {},
    [],
  ),
);
const nearFixture = fc
  .tuple(fc.constantFrom(...Object.values(fixtures)), fc.string({ maxLength: 12 }), fieldValue, fc.boolean())
  .chain(([base, extraKey, value, remove]) => {
    const keys = Object.keys(base);
    return fc.constantFrom(...keys, extraKey).map((key) => {
      const copy: Record<string, unknown> = structuredClone(base);
      if (remove) delete copy[key];
      else copy[key] = value;
      return copy;
    });
  });

describe.each(schemas)('the %s schema', (_name, schema, reference) => {
  const check = compileCheck(schema as Parameters<typeof compileCheck>[0]);
  const ref = reference as Parameters<typeof Value.Check>[0];
  const same = (v: unknown) => {
    expect(check(v)).toBe(Value.Check(ref, v));
    expect(collectIssues(schema as Parameters<typeof collectIssues>[0], v, '$.batch[2]')).toEqual(
      referenceIssues(ref, v, '$.batch[2]'),
    );
    return true;
  };

  it('is the JSON Schema TypeBox built, key for key', () => {
    expect(JSON.stringify(schema)).toBe(JSON.stringify(ref));
  });

  it('answers and explains as TypeBox did on the fixtures and on values near them', () => {
    for (const f of Object.values(fixtures)) same(f);
    fc.assert(fc.property(nearFixture, same), { numRuns: 300 });
  });

  it('answers and explains as TypeBox did on arbitrary JSON', () => {
    fc.assert(fc.property(fc.jsonValue(), same), { numRuns: 200 });
  });
});

it('accepts a valid track message and refuses one without its event', () => {
  const check = compileCheck(messageSchemas.track);
  expect(check(fixtures.track)).toBe(true);
  const { event: _dropped, ...noEvent } = fixtures.track;
  expect(check(noEvent)).toBe(false);
  expect(collectIssues(messageSchemas.track, noEvent)).toEqual([{ path: '$.event', message: 'is required' }]);
});

it('refuses a JSON Schema keyword it does not check, rather than skip it', () => {
  expect(() => compileCheck({ type: 'string', format: 'email' } as never)).toThrow(/do not know this schema/);
  expect(() => compileCheck({ type: 'object', properties: {}, additionalProperties: false } as never)).toThrow(
    /do not know/,
  );
});
