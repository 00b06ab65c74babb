// The compiled checks must answer exactly what TypeBox's interpreter answers, on every schema used.
import { Value } from '@sinclair/typebox/value';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixtures, messageSchemas } from '../src/index.js';
import { callSchemas } from '../src/calls.js';
import { strictMessageSchemas } from '../src/internal.js';
import { compileCheck } from '../src/messages/compile-check.js';

const schemas = {
  ...Object.fromEntries(Object.entries(messageSchemas).map(([k, s]) => [`message ${k}`, s])),
  ...Object.fromEntries(Object.entries(strictMessageSchemas).map(([k, s]) => [`strict ${k}`, s])),
  ...Object.fromEntries(Object.entries(callSchemas).map(([k, s]) => [`call ${k}`, s])),
};

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

describe.each(Object.entries(schemas))('compiled check of the %s schema', (_name, schema) => {
  const check = compileCheck(schema);

  it('agrees with Value.Check on the fixtures and on values near them', () => {
    for (const f of Object.values(fixtures)) expect(check(f)).toBe(Value.Check(schema, f));
    fc.assert(
      fc.property(nearFixture, (v) => check(v) === Value.Check(schema, v)),
      { numRuns: 300 },
    );
  });

  it('agrees with Value.Check on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => check(v) === Value.Check(schema, v)),
      { numRuns: 200 },
    );
  });
});

it('accepts a valid track message and refuses one without its event', () => {
  const check = compileCheck(messageSchemas.track);
  expect(check(fixtures.track)).toBe(true);
  const { event: _dropped, ...noEvent } = fixtures.track;
  expect(check(noEvent)).toBe(false);
});
