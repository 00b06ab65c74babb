// What users of sign / verify / constantTimeEqual / explainMismatch rely on that the broader tests
// (signatures.test.ts, signatures.property.test.ts, explain-mismatch.test.ts) left unpinned, found by
// mutation testing (`pnpm test:mutation`): every body type, every refusal's exact message, the edges of
// the hex header, the comparison's length check, HMAC over keys and bodies of every size.
import * as NodeCrypto from 'node:crypto';
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { constantTimeEqual, sortedJson } from '../src/internal.js';
import {
  explainMismatch,
  sign,
  signAsync,
  verify,
  verifyAsync,
  type VerifyInput,
  type VerifyResult,
} from '../src/index.js';
// The Node build's node:crypto lookup (tsup swaps it in for node-crypto.ts): tested here from source.
import * as nodeBuildCrypto from '../src/signatures/node-crypto.node.js';
// What the receiver's debug mode says about bytes re-encoded after signing.
import { reserializedMatch } from '../src/signatures/reserialized-match.js';

const SECRET = 'whsec_pinned';
const hmac = (body: string | Uint8Array, secret: string | Uint8Array = SECRET) =>
  createHmac('sha1', secret).update(body).digest('hex');
const BODY = '{"type":"track","event":"Signed Up"}';

async function both(input: VerifyInput): Promise<VerifyResult> {
  const a = verify(input);
  expect(await verifyAsync(input)).toEqual(a);
  return a;
}

const arrayBufferOf = (text: string): ArrayBuffer => {
  const bytes = new TextEncoder().encode(text);
  const buffer = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(buffer).set(bytes);
  return buffer;
};

describe('verify: every body type', () => {
  it('verifies an ArrayBuffer body (what request.arrayBuffer() gives), and refuses a changed one', async () => {
    expect(await both({ signature: hmac(BODY), secret: SECRET, rawBody: arrayBufferOf(BODY) })).toEqual({
      ok: true,
      form: 'raw',
      secretIndex: 0,
    });
    expect(await both({ signature: hmac(BODY), secret: SECRET, rawBody: arrayBufferOf(`${BODY} `) })).toEqual({
      ok: false,
      reason: 'mismatch',
      message: 'X-Signature does not match the raw body bytes under any configured secret.',
    });
  });

  it('signs an ArrayBuffer, bytes and a string alike', async () => {
    const expected = hmac(BODY);
    for (const body of [BODY, new TextEncoder().encode(BODY), arrayBufferOf(BODY)]) {
      expect(sign(body, SECRET)).toBe(expected);
      expect(await signAsync(body, SECRET)).toBe(expected);
    }
  });

  it('counts a raw body that is not text, bytes or an ArrayBuffer as absent', async () => {
    expect(await both({ signature: hmac(BODY), secret: SECRET, rawBody: 42 as never })).toEqual({
      ok: false,
      reason: 'mismatch',
      message: 'There is no body to verify.',
    });
    // ... and then the parsed body is what is checked.
    const parsed = JSON.parse(BODY) as unknown;
    expect(await both({ signature: hmac(BODY), secret: SECRET, rawBody: {} as never, parsedBody: parsed })).toEqual({
      ok: true,
      form: 'stringify',
      secretIndex: 0,
    });
  });
});

describe('verify: the exact refusals', () => {
  const sig = hmac(BODY);

  it('missing: no header, null or empty', async () => {
    for (const signature of [undefined, null, '']) {
      expect(await both({ signature, secret: SECRET, rawBody: BODY })).toEqual({
        ok: false,
        reason: 'missing',
        message: 'No X-Signature header: the request is not signed.',
      });
    }
  });

  it('malformed: repeated headers or a non-string, and a wrong length counted without the blanks', async () => {
    for (const signature of [[sig, sig], 7, {}]) {
      expect(await both({ signature, secret: SECRET, rawBody: BODY })).toEqual({
        ok: false,
        reason: 'malformed',
        message: 'X-Signature must be one header holding 40 hex digits.',
      });
    }
    for (const [signature, length] of [
      [sig.slice(1), 39],
      [`${sig}0`, 41],
      [` \t${sig.slice(2)}\r\n`, 38],
      ['   ', 0],
    ] as const) {
      expect(await both({ signature, secret: SECRET, rawBody: BODY })).toEqual({
        ok: false,
        reason: 'malformed',
        message: `X-Signature must be 40 hex digits (HMAC-SHA1); got ${length} characters.`,
      });
    }
  });

  it('reads hex digits 0-9, a-f, A-F only: the characters next to each range are malformed', async () => {
    expect((await both({ signature: ` ${sig.toUpperCase()}\t`, secret: SECRET, rawBody: BODY })).ok).toBe(true);
    for (const bad of ['/', ':', '@', 'G', '`', 'g', ' ', '\u0130']) {
      for (const at of [0, 39]) {
        const signature = sig.slice(0, at) + bad + sig.slice(at + 1);
        const r = await both({ signature, secret: SECRET, rawBody: BODY });
        expect(r, `${JSON.stringify(bad)} at ${at}`).toMatchObject({ ok: false, reason: 'malformed' });
      }
    }
    // The edges of each range are digits: a changed digit is a mismatch, not malformed.
    for (const edge of ['0', '9', 'a', 'f', 'A', 'F']) {
      const signature = (sig[0] === edge ? '1' : edge) + sig.slice(1);
      expect(await both({ signature, secret: SECRET, rawBody: BODY }), edge).toMatchObject({ reason: 'mismatch' });
    }
  });

  it('mismatch: names the raw bytes, any form, or that no allowed form applies', async () => {
    const wrong = hmac('other');
    expect(await both({ signature: wrong, secret: SECRET, parsedBody: JSON.parse(BODY) })).toEqual({
      ok: false,
      reason: 'mismatch',
      message: 'X-Signature does not match the body under any configured secret.',
    });
    expect(await both({ signature: wrong, secret: SECRET, rawBody: BODY, allowReserialized: true })).toMatchObject({
      message: 'X-Signature does not match the body under any configured secret.',
    });
    expect(await both({ signature: sig, secret: SECRET, rawBody: BODY, forms: ['stringify', 'sorted'] })).toEqual({
      ok: false,
      reason: 'mismatch',
      message:
        'None of the allowed signature forms applies to this body (with raw bytes only `raw` is tried unless re-serialized forms are allowed; without them `raw` cannot be).',
    });
    expect(await both({ signature: sig, secret: SECRET, parsedBody: JSON.parse(BODY), forms: ['raw'] })).toMatchObject({
      message: expect.stringMatching(/^None of the allowed signature forms applies/) as unknown,
    });
  });

  it('no usable secret: none, an empty one, or one of the wrong type anywhere in a rotation', async () => {
    const unusable = [[], '', new Uint8Array(0), [SECRET, ''], [3], [SECRET, {}], null];
    for (const [i, secret] of unusable.entries()) {
      expect(await both({ signature: sig, secret: secret as never, rawBody: BODY }), `case ${i}`).toEqual({
        ok: false,
        reason: 'mismatch',
        message: 'No usable secret was configured: each secret must be a non-empty string or Uint8Array.',
      });
    }
  });

  it('tries the allowed forms in the order given', async () => {
    // Keys already sorted: the stringify and sorted forms are the same text, so the first tried wins.
    const pretty = '{\n  "a": 1,\n  "b": 2\n}';
    const compact = hmac('{"a":1,"b":2}');
    const input = { signature: compact, secret: SECRET, rawBody: pretty, allowReserialized: true };
    expect(await both({ ...input, forms: ['sorted', 'stringify'] })).toMatchObject({ ok: true, form: 'sorted' });
    expect(await both({ ...input, forms: ['stringify', 'sorted'] })).toMatchObject({ ok: true, form: 'stringify' });
    expect(await both({ ...input, forms: ['raw'] })).toMatchObject({ ok: false });
    // Without raw bytes, `raw` in the list is skipped, the rest tried.
    const parsed = { signature: compact, secret: SECRET, parsedBody: JSON.parse(pretty) as unknown };
    expect(await both({ ...parsed, forms: ['raw', 'stringify'] })).toMatchObject({ ok: true, form: 'stringify' });
  });

  it('reports which secret of a rotation matched, for string and byte secrets', async () => {
    const old = new TextEncoder().encode('whsec_old');
    const r = await both({ signature: hmac(BODY, old), secret: [SECRET, 'whsec_other', old], rawBody: BODY });
    expect(r).toEqual({ ok: true, form: 'raw', secretIndex: 2 });
  });
});

describe('constantTimeEqual', () => {
  it('is false when one array is a prefix of the other, whichever is longer', () => {
    const short = new Uint8Array([1, 2, 3]);
    const long = new Uint8Array([1, 2, 3, 0]);
    expect(constantTimeEqual(short, long)).toBe(false);
    expect(constantTimeEqual(long, short)).toBe(false);
    expect(constantTimeEqual(new Uint8Array(0), new Uint8Array([0]))).toBe(false);
  });

  it('checks the length before handing the arrays to a timingSafeEqual that throws on unequal lengths', async () => {
    const { timingSafeEqual } = await import('node:crypto');
    expect(constantTimeEqual(new Uint8Array([1]), new Uint8Array([1, 1]), timingSafeEqual)).toBe(false);
    expect(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]), timingSafeEqual)).toBe(true);
    expect(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3]), timingSafeEqual)).toBe(false);
    expect(constantTimeEqual(new Uint8Array([7, 2]), new Uint8Array([1, 2]))).toBe(false);
  });
});

describe('HMAC over keys and bodies of every size (sign and verify agree with createHmac)', () => {
  const keys = ['k', 'x'.repeat(64), 'y'.repeat(65), new Uint8Array(65).fill(7), 'clé-é'];
  const sizes = [0, 1, 21_845, 21_846, 65_536, 65_537, 70_000];

  it('sign and verify equal createHmac for every key and body size, as text (multibyte too) and as bytes', () => {
    for (const key of keys) {
      for (const size of sizes) {
        const ascii = 'a'.repeat(size);
        const multibyte = 'é'.repeat(Math.ceil(size / 2)); // 2 UTF-8 bytes per character
        for (const body of [ascii, multibyte, new TextEncoder().encode(ascii)]) {
          const expected = createHmac('sha1', key).update(body).digest('hex');
          expect(sign(body, key), `key ${key.length}, body ${size}`).toBe(expected);
          expect(verify({ signature: expected, secret: key, rawBody: body }).ok).toBe(true);
        }
      }
    }
  });

  it('does not remember a byte secret by identity: changed bytes sign differently', async () => {
    const key = new Uint8Array([1, 2, 3]);
    const before = sign(BODY, key);
    key[0] = 9;
    expect(sign(BODY, key)).toBe(hmac(BODY, key));
    expect(sign(BODY, key)).not.toBe(before);
    expect(await signAsync(BODY, key)).toBe(hmac(BODY, key));
  });
});

describe('verify: which body is checked', () => {
  it('an explicit parsedBody: undefined is no body', async () => {
    expect(await both({ signature: hmac(BODY), secret: SECRET, parsedBody: undefined })).toMatchObject({
      message: 'There is no body to verify.',
    });
  });

  it('re-serializes the parsedBody given, not a parse of the raw bytes', async () => {
    const parsedBody = { a: 1 };
    const input = { secret: SECRET, rawBody: '{ "a": 2 }', parsedBody, allowReserialized: true };
    expect(await both({ ...input, signature: hmac('{"a":1}') })).toMatchObject({ ok: true, form: 'stringify' });
    expect(await both({ ...input, signature: hmac('{"a":2}') })).toMatchObject({ ok: false });
  });
});

describe('reserializedMatch (debug mode: bytes re-encoded after signing)', () => {
  it('names the form the signature matches and the first byte where the raw bytes differ', () => {
    expect(reserializedMatch(hmac('{"a":1}'), [SECRET], '{ "a": 1 }')).toEqual({ form: 'stringify', at: 1 });
    expect(reserializedMatch(hmac('{"a":1,"b":2}'), ['other', SECRET], '{"b":2,"a":1}')).toEqual({
      form: 'sorted',
      at: 2,
    });
    // The signed text is a prefix of the raw bytes (a trailing newline): the difference is where it ends.
    expect(reserializedMatch(hmac('{"a":1}'), [SECRET], new TextEncoder().encode('{"a":1}\n'))).toEqual({
      form: 'stringify',
      at: 7,
    });
  });

  it('says nothing when no re-serialized form matches', () => {
    expect(reserializedMatch(hmac('{"a":3}'), [SECRET], '{ "a": 1 }')).toBeUndefined();
  });
});

describe("the Node build's node:crypto", () => {
  it('is node:crypto itself, for sign and verify alike', () => {
    expect(nodeBuildCrypto.nodeCrypto()?.createHmac).toBe(NodeCrypto.createHmac);
    expect(nodeBuildCrypto.requireNodeCrypto('sign').timingSafeEqual).toBe(NodeCrypto.timingSafeEqual);
  });
});

describe('sortedJson', () => {
  it('sorts keys at every level, arrays kept in order', () => {
    expect(sortedJson({ b: [{ d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[{"c":2,"d":1}]}');
  });
});

describe('explainMismatch: the exact findings a user reads', () => {
  it('names each cause with its path, offset, text and fix', () => {
    const body = '{"b":1.0, "1":"caf\\u00E9","u":"\\u00e9","e":"\\u001B","s":"a\\/b","t":"\\t\\u0009","b":2}\n';
    expect(explainMismatch(body)).toEqual([
      {
        path: '$.b',
        cause: 'number-format',
        offset: 5,
        raw: '1.0',
        reserialized: '1',
        message: 'The number 1.0 is written as 1 by JSON.stringify. Verify the raw bytes, not a re-serialization.',
      },
      {
        path: '$',
        cause: 'whitespace',
        offset: 9,
        raw: ' ',
        reserialized: '',
        message:
          'The body has whitespace between tokens (pretty-printed); JSON.stringify writes none. Verify the raw bytes, not a re-serialization.',
      },
      {
        path: '$["1"]',
        cause: 'key-order',
        offset: 10,
        raw: '"1"',
        message:
          'Integer-like key "1" is not first in its object; JavaScript moves such keys first and sorts them, so JSON.stringify reorders this object.',
      },
      {
        path: '$["1"]',
        cause: 'unicode-escape',
        offset: 14,
        raw: '"caf\\u00E9"',
        reserialized: '"café"',
        message:
          'It writes a character as a \\u escape; JSON.stringify writes the character itself (UTF-8). Verify the raw bytes, not a re-serialization.',
      },
      {
        path: '$.u',
        cause: 'unicode-escape',
        offset: 30,
        raw: '"\\u00e9"',
        reserialized: '"é"',
        message:
          'It writes a character as a \\u escape; JSON.stringify writes the character itself (UTF-8). Verify the raw bytes, not a re-serialization.',
      },
      {
        path: '$.e',
        cause: 'escape-case',
        offset: 43,
        raw: '"\\u001B"',
        reserialized: '"\\u001b"',
        message:
          'It writes a \\u escape in uppercase hex; JSON.stringify writes lowercase. Verify the raw bytes, not a re-serialization.',
      },
      {
        path: '$.s',
        cause: 'escaped-slash',
        offset: 56,
        raw: '"a\\/b"',
        reserialized: '"a/b"',
        message:
          'It escapes "/" as "\\/" (PHP and some Java encoders do); JSON.stringify writes a plain "/". Verify the raw bytes, not a re-serialization.',
      },
      {
        path: '$.t',
        cause: 'unicode-escape',
        offset: 67,
        raw: '"\\t\\u0009"',
        reserialized: '"\\t\\t"',
        message:
          'It writes a character as a \\u escape; JSON.stringify writes the character itself (UTF-8). Verify the raw bytes, not a re-serialization.',
      },
      {
        path: '$.b',
        cause: 'duplicate-key',
        offset: 78,
        raw: '"b"',
        message: 'Key "b" appears twice; JSON.parse keeps only the last value, so the re-serialized body is shorter.',
      },
    ]);
  });

  it('explains whitespace at the edge, a big integer, an escape it cannot name, and invalid input', () => {
    expect(explainMismatch('\n{"id":9007199254740993}')).toEqual([
      {
        path: '$',
        cause: 'whitespace',
        offset: 0,
        raw: '\n',
        reserialized: '',
        message:
          'The body has whitespace before or after the JSON value (a trailing newline, say); JSON.stringify writes none. Verify the raw bytes, not a re-serialization.',
      },
      {
        path: '$.id',
        cause: 'big-integer',
        offset: 7,
        raw: '9007199254740993',
        reserialized: '9007199254740992',
        message:
          'The integer 9007199254740993 is beyond 2^53; JavaScript rounds it to 9007199254740992. Verify the raw bytes, or send it as a string.',
      },
    ]);
    expect(explainMismatch('["\\f\\b"]').map((f) => f.cause)).toEqual([]);
    expect(explainMismatch('{"\\u0061":1}')).toEqual([
      expect.objectContaining({ path: '$ (a key)', cause: 'unicode-escape', offset: 1 }),
    ]);
    expect(explainMismatch('{"a":tru}')).toEqual([
      {
        path: '$',
        cause: 'invalid-json',
        offset: 5,
        raw: 'tru}',
        message: 'The body is not valid JSON at offset 5: expected true.',
      },
    ]);
    expect(explainMismatch(new Uint8Array([0x22, 0xff, 0x22]))).toEqual([
      {
        path: '$',
        cause: 'invalid-utf8',
        offset: 0,
        raw: '',
        message: 'The body is not valid UTF-8; a JSON round trip replaces the bad bytes.',
      },
    ]);
  });

  it('names the syntax error of each malformed shape', () => {
    const messageOf = (body: string) => explainMismatch(body)[0]?.message;
    expect(messageOf('{"a":1} x')).toBe(
      'The body is not valid JSON at offset 8: unexpected text after the JSON value.',
    );
    expect(messageOf('{1:2}')).toBe('The body is not valid JSON at offset 1: expected a key.');
    expect(messageOf('{"a" 1}')).toBe('The body is not valid JSON at offset 5: expected ":".');
    expect(messageOf('{"a":1 "b":2}')).toBe('The body is not valid JSON at offset 7: expected "," or "}".');
    expect(messageOf('[1 2]')).toBe('The body is not valid JSON at offset 3: expected "," or "]".');
    expect(messageOf('["abc')).toBe('The body is not valid JSON at offset 5: unterminated string.');
    expect(messageOf('[+1]')).toBe('The body is not valid JSON at offset 1: unexpected character.');
    expect(messageOf('[fals]')).toBe('The body is not valid JSON at offset 1: expected false.');
    expect(messageOf('[nul]')).toBe('The body is not valid JSON at offset 1: expected null.');
  });

  it('keeps integer-like keys in order when they come first and ascend; reports the first disorder once', () => {
    expect(explainMismatch('{"1":0,"2":0,"a":0}')).toEqual([]);
    expect(explainMismatch('{"4294967295":0,"a":0}')).toEqual([]); // not an array index: stays in place
    expect(explainMismatch('{"01":0,"a":0}')).toEqual([]);
    const disorder = explainMismatch('{"2":0,"1":0,"a":0,"3":0,"0":0}');
    expect(disorder.map((f) => [f.cause, f.path])).toEqual([['key-order', '$["1"]']]);
  });

  it('shortens a very long path in the too-deep message', () => {
    const key = 'k'.repeat(30);
    const body = `${`{"${key}":`.repeat(101)}1${'}'.repeat(101)}`;
    const [found] = explainMismatch(body);
    expect(found?.cause).toBe('too-deep');
    expect(found?.path.length).toBeGreaterThan(120);
    expect(found?.raw).toBe(body.slice(found?.offset, (found?.offset ?? 0) + 20));
    const where = `${found?.path.slice(0, 60)}…${found?.path.slice(-40)}`;
    expect(found?.message).toBe(
      `The body nests deeper than 100 levels of objects and arrays at ${where} (offset ${found?.offset}); the explanation stops there and says nothing about the rest of the body (this is not a statement that the JSON is invalid). Flatten the data, or send the deep part as a string.`,
    );
  });
});
