// explainMismatch: each cause at its JSON path, and a property that findings are empty exactly when the
// raw body survives JSON.parse + JSON.stringify byte for byte.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allFixtures, explainMismatch, type MismatchCause } from '../src/index.js';

const roundTrips = (text: string) => {
  try {
    return JSON.stringify(JSON.parse(text)) === text;
  } catch {
    return false;
  }
};

describe('explainMismatch: each cause at its JSON path', () => {
  const cases: Array<[string, string, string, MismatchCause, string, string | undefined]> = [
    // name, raw body, path, cause, raw text, reserialized
    ['1.0', '{"price":1.0}', '$.price', 'number-format', '1.0', '1'],
    ['1e2', '{"n":1e2}', '$.n', 'number-format', '1e2', '100'],
    ['1E+2', '{"n":1E+2}', '$.n', 'number-format', '1E+2', '100'],
    ['-0', '{"z":-0}', '$.z', 'number-format', '-0', '0'],
    ['0.50', '{"r":0.50}', '$.r', 'number-format', '0.50', '0.5'],
    ['\\u00E9', '{"s":"caf\\u00E9"}', '$.s', 'unicode-escape', '"caf\\u00E9"', '"café"'],
    ['\\u00e9', '{"s":"caf\\u00e9"}', '$.s', 'unicode-escape', '"caf\\u00e9"', '"café"'],
    ['\\u001B', '{"esc":"\\u001B[0m"}', '$.esc', 'escape-case', '"\\u001B[0m"', '"\\u001b[0m"'],
    [
      '\\/',
      '{"url":"https:\\/\\/example.com\\/a"}',
      '$.url',
      'escaped-slash',
      '"https:\\/\\/example.com\\/a"',
      '"https://example.com/a"',
    ],
    [
      'a big integer',
      '{"id":12345678901234567890}',
      '$.id',
      'big-integer',
      '12345678901234567890',
      '12345678901234567000',
    ],
    ['2^53 + 1', '{"id":9007199254740993}', '$.id', 'big-integer', '9007199254740993', '9007199254740992'],
    ['a 500-digit integer', `{"id":${'9'.repeat(500)}}`, '$.id', 'big-integer', '9'.repeat(500), 'null'],
  ];

  it.each(cases)('%s', (_name, body, path, cause, raw, reserialized) => {
    const findings = explainMismatch(body);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ path, cause, raw, offset: body.indexOf(raw) });
    if (reserialized !== undefined) expect(findings[0]!.reserialized).toBe(reserialized);
    expect(findings[0]!.message.length).toBeGreaterThan(20);
  });

  it('integer-like keys after others: JavaScript moves them first', () => {
    const findings = explainMismatch('{"b":1,"10":true,"a":2}');
    expect(findings).toEqual([expect.objectContaining({ path: '$["10"]', cause: 'key-order', offset: 7 })]);
    expect(findings[0]!.message).toContain('moves such keys first');
    expect(explainMismatch('{"2":1,"1":2}')).toEqual([expect.objectContaining({ path: '$["1"]', cause: 'key-order' })]);
    // Not an array index (2^32 - 1 and above): insertion order is kept, nothing to report.
    expect(explainMismatch('{"a":1,"4294967295":2}')).toEqual([]);
    expect(explainMismatch('{"1":1,"2":2,"a":3}')).toEqual([]);
  });

  it('a duplicate key', () => {
    expect(explainMismatch('{"a":1,"b":2,"a":3}')).toEqual([
      expect.objectContaining({ path: '$.a', cause: 'duplicate-key', offset: 13 }),
    ]);
  });

  it('whitespace between tokens, reported once', () => {
    const findings = explainMismatch('{\n  "a": 1,\n  "b": 2\n}');
    expect(findings).toEqual([expect.objectContaining({ path: '$', cause: 'whitespace', offset: 1 })]);
  });

  it('whitespace before or after the value (a trailing newline)', () => {
    expect(explainMismatch('{"a":1}\n')).toEqual([
      expect.objectContaining({ path: '$', cause: 'whitespace', offset: 7 }),
    ]);
    expect(explainMismatch(' {"a":1}')).toEqual([
      expect.objectContaining({ path: '$', cause: 'whitespace', offset: 0 }),
    ]);
  });

  it('invalid JSON, with the offset', () => {
    const findings = explainMismatch('{"a":}');
    expect(findings).toEqual([expect.objectContaining({ path: '$', cause: 'invalid-json', offset: 5 })]);
    expect(explainMismatch('{"a":1} x')[0]!.cause).toBe('invalid-json');
    expect(explainMismatch('')[0]!.cause).toBe('invalid-json');
    expect(explainMismatch('{"a":"\u0001"}')[0]!.cause).toBe('invalid-json');
  });

  it('invalid UTF-8 bytes', () => {
    expect(explainMismatch(new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]))).toEqual([
      expect.objectContaining({ path: '$', cause: 'invalid-utf8' }),
    ]);
  });

  it('locates values deep inside objects and arrays, and keys that are not identifiers', () => {
    const findings = explainMismatch('{"properties":{"items":[{"price":2.50},{"x":1}],"Previous ID":"a\\/b"}}');
    expect(findings.map((f) => [f.path, f.cause])).toEqual([
      ['$.properties.items[0].price', 'number-format'],
      ['$.properties["Previous ID"]', 'escaped-slash'],
    ]);
  });

  it('reports every place, in order, up to a cap', () => {
    const body = `{${Array.from({ length: 200 }, (_, i) => `"k${i}":1.0`).join(',')}}`;
    const findings = explainMismatch(body);
    expect(findings.length).toBeGreaterThan(10);
    expect(findings.length).toBeLessThanOrEqual(50);
    expect(findings.slice(0, 3).map((f) => f.path)).toEqual(['$.k0', '$.k1', '$.k2']);
  });

  it('reads bytes as UTF-8, multibyte characters included', () => {
    const body = new TextEncoder().encode('{"note":"café ☕ 日本","n":1.10}');
    expect(explainMismatch(body)).toEqual([
      expect.objectContaining({ path: '$.n', cause: 'number-format', raw: '1.10' }),
    ]);
  });
});

describe('explainMismatch: a body nested deeper than 100 levels', () => {
  const deepArrayPath = `$${'[0]'.repeat(100)}`; // the 101st array

  it('a 100,000-deep array (valid JSON): too-deep at the path where it passes 100 levels, no "invalid"', () => {
    const body = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(() => JSON.parse(body)).not.toThrow();
    const findings = explainMismatch(body);
    expect(findings).toEqual([expect.objectContaining({ path: deepArrayPath, cause: 'too-deep', offset: 100 })]);
    const message = findings[0]!.message;
    expect(message).toContain('deeper than 100 levels');
    expect(message).toContain('offset 100');
    expect(message).toContain('stops there');
    expect(message).not.toMatch(/not valid|call stack/);
    expect(message).toContain('not a statement that the JSON is invalid');
  });

  it('a 100,000-deep object (valid JSON): too-deep at $.a.a…, no "invalid"', () => {
    const body = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    expect(() => JSON.parse(body)).not.toThrow();
    const findings = explainMismatch(body);
    expect(findings).toEqual([
      expect.objectContaining({ path: `$${'.a'.repeat(100)}`, cause: 'too-deep', offset: 500 }),
    ]);
    expect(findings[0]!.message).toContain('deeper than 100 levels');
    expect(findings[0]!.message).not.toMatch(/not valid|call stack/);
  });

  it('keeps the findings before the depth, and walks exactly 100 levels', () => {
    const before = `[1.0,${'['.repeat(200)}${']'.repeat(200)}]`;
    expect(explainMismatch(before).map((f) => [f.path, f.cause])).toEqual([
      ['$[0]', 'number-format'],
      [`$[1]${'[0]'.repeat(99)}`, 'too-deep'],
    ]);
    // 100 levels: explained in full, the 1.0 inside included.
    expect(explainMismatch(`${'['.repeat(100)}1.0${']'.repeat(100)}`)).toEqual([
      expect.objectContaining({ path: deepArrayPath, cause: 'number-format', raw: '1.0' }),
    ]);
    expect(explainMismatch(`${'['.repeat(100)}1${']'.repeat(100)}`)).toEqual([]);
    expect(explainMismatch(`${'['.repeat(101)}1${']'.repeat(101)}`)).toEqual([
      expect.objectContaining({ path: deepArrayPath, cause: 'too-deep' }),
    ]);
  });

  it('a deep and invalid body: invalid-json when the fault comes first, too-deep (no verdict on validity) after', () => {
    const faultFirst = `{"a":,${'['.repeat(100_000)}`;
    expect(explainMismatch(faultFirst)).toEqual([
      expect.objectContaining({ path: '$', cause: 'invalid-json', offset: 5 }),
    ]);
    const unclosed = '['.repeat(100_000);
    const findings = explainMismatch(unclosed);
    expect(findings).toEqual([expect.objectContaining({ path: deepArrayPath, cause: 'too-deep', offset: 100 })]);
    expect(findings[0]!.message).toContain('says nothing about the rest of the body');
    // Shallow but invalid: still invalid-json, with the offset.
    expect(explainMismatch(`${'['.repeat(50)}x`)).toEqual([
      expect.objectContaining({ cause: 'invalid-json', offset: 50 }),
    ]);
  });

  it('never reports a stack overflow as invalid JSON, even from a caller whose stack is nearly full', () => {
    const body = `${'['.repeat(100)}${']'.repeat(100)}`;
    const causes = new Set<string>();
    const messages: string[] = [];
    let level = 0;
    let deepest = -1;
    const dive = (): void => {
      level++;
      try {
        dive();
      } catch {
        if (deepest < 0) deepest = level; // the stack just ran out here
      }
      // Unwinding from the deepest frame: the first calls have little stack left.
      if (deepest - level < 3000) {
        try {
          for (const f of explainMismatch(body)) {
            causes.add(f.cause);
            messages.push(f.message);
          }
        } catch {
          // out of stack before the explainer started: nothing reported, nothing to judge
        }
      }
      level--;
    };
    dive();
    expect(causes.has('invalid-json')).toBe(false);
    expect(causes.has('too-deep')).toBe(true);
    expect(messages.some((m) => m.includes('ran out of call stack'))).toBe(true);
    for (const m of messages) expect(m).not.toContain('not valid JSON');
  });
});

describe('explainMismatch: nothing to report when the body round-trips', () => {
  it('for every fixture as the sender writes it', () => {
    for (const m of allFixtures()) expect(explainMismatch(JSON.stringify(m))).toEqual([]);
  });

  it('for JSON.stringify of any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(explainMismatch(JSON.stringify(v))).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });
});

/** JSON texts written the many ways encoders do: number spellings, escapes, key orders, whitespace. */
const ws = fc.constantFrom('', '', '', ' ', '\n', '\t', '\r\n  ');
const numberText = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }).map(String),
  fc.constantFrom(
    '1.0',
    '1e2',
    '1E-2',
    '-0',
    '0.10',
    '2.50',
    '1e400',
    '-0.0',
    '12345678901234567890',
    '9007199254740993',
    '9007199254740992',
    '0',
    '1.5',
    '3e-7',
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
);
const stringText = fc
  .array(
    fc.oneof(
      fc.string({ maxLength: 5 }).map((s) => JSON.stringify(s).slice(1, -1)),
      fc.constantFrom(
        '\\/',
        '\\u00e9',
        '\\u00E9',
        '\\u001b',
        '\\u001B',
        '\\n',
        '\\u000a',
        '\\t',
        '\\"',
        '\\\\',
        'é',
        '☕',
        '\\ud83d\\ude00',
        '\\uD83D\\uDE00',
        '/',
      ),
    ),
    { maxLength: 4 },
  )
  .map((parts) => `"${parts.join('')}"`);
const keyText = fc.oneof(stringText, fc.constantFrom('"1"', '"2"', '"10"', '"a"', '"b"', '"4294967295"', '"01"'));
const { value: jsonText } = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    numberText,
    stringText,
    fc.constantFrom('true', 'false', 'null'),
    fc
      .array(fc.tuple(ws, tie('value'), ws), { maxLength: 4 })
      .map((items) => `[${items.map(([a, v, b]) => a + v + b).join(',')}]`),
    fc
      .array(fc.tuple(ws, keyText, ws, ws, tie('value'), ws), { maxLength: 4 })
      .map((entries) => `{${entries.map(([a, k, b, c, v, d]) => `${a}${k}${b}:${c}${v}${d}`).join(',')}}`),
  ),
}));

describe('explainMismatch: findings are empty exactly when the body round-trips', () => {
  it('over JSON texts written in every style', () => {
    fc.assert(
      fc.property(
        fc.tuple(ws, jsonText, ws).map(([a, v, b]) => a + v + b),
        (text) => {
          const findings = explainMismatch(text);
          if (roundTrips(text)) expect(findings).toEqual([]);
          else expect(findings.length, `no finding for ${JSON.stringify(text)}`).toBeGreaterThan(0);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
