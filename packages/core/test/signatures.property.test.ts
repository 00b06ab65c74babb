// Property tests (fast-check): every JSON value signed then verified passes by each form that applies;
// any one-byte change of body or signature fails; random garbage never throws.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { explainMismatch, sign, signAsync, verify, verifyAsync } from '../src/index.js';

const SECRET = 'whsec_property';
const hmacHex = (bytes: Uint8Array | string, secret: string = SECRET) =>
  createHmac('sha1', secret).update(bytes).digest('hex');
const utf8 = (s: string) => new TextEncoder().encode(s);

/** Key-sorted JSON, written independently of core. */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${sortedJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

const secret = fc.oneof(
  fc.constant(SECRET),
  fc.string({ minLength: 1, maxLength: 64 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 80 }),
);
const jsonValue = fc.jsonValue({ maxDepth: 4 });

describe('signed then verified', () => {
  it('every JSON value passes by raw bytes, by JSON.stringify of the parsed body, and by the key-sorted form; re-encoded raw bytes only when allowed', () => {
    fc.assert(
      fc.property(jsonValue, secret, (value, key) => {
        const text = JSON.stringify(value);
        const sig = sign(text, key);
        expect(sig).toBe(hmacHex(utf8(text), key));

        // raw: the exact bytes, as text or as bytes
        expect(verify({ signature: sig, secret: key, rawBody: text })).toEqual({
          ok: true,
          form: 'raw',
          secretIndex: 0,
        });
        expect(verify({ signature: sig, secret: key, rawBody: utf8(text) })).toEqual({
          ok: true,
          form: 'raw',
          secretIndex: 0,
        });
        // stringify: only the parsed body is left
        expect(verify({ signature: sig, secret: key, parsedBody: JSON.parse(text) })).toEqual({
          ok: true,
          form: 'stringify',
          secretIndex: 0,
        });
        // stringify: the raw bytes were pretty-printed on the way
        const pretty = JSON.stringify(value, null, 2);
        if (pretty === text)
          expect(verify({ signature: sig, secret: key, rawBody: pretty })).toEqual({
            ok: true,
            form: 'raw',
            secretIndex: 0,
          });
        else
          expect(verify({ signature: sig, secret: key, rawBody: pretty })).toMatchObject({
            ok: false,
            reason: 'mismatch',
          });
        expect(verify({ signature: sig, secret: key, rawBody: pretty, allowReserialized: true })).toEqual({
          ok: true,
          form: pretty === text ? 'raw' : 'stringify',
          secretIndex: 0,
        });
        // sorted: signed over a key-sorted serialization
        const sorted = sortedJson(value);
        const sortedSig = sign(sorted, key);
        expect(verify({ signature: sortedSig, secret: key, parsedBody: value })).toEqual({
          ok: true,
          form: sorted === text ? 'stringify' : 'sorted',
          secretIndex: 0,
        });
      }),
      { numRuns: 400 },
    );
  });

  it('signAsync and verifyAsync agree with sign and verify', async () => {
    await fc.assert(
      fc.asyncProperty(jsonValue, secret, fc.boolean(), async (value, key, useParsed) => {
        const text = JSON.stringify(value);
        expect(await signAsync(text, key)).toBe(sign(text, key));
        const input = useParsed
          ? { signature: sign(text, key), secret: key, parsedBody: value }
          : { signature: sign(text, key), secret: key, rawBody: text };
        expect(await verifyAsync(input)).toEqual(verify(input));
      }),
      { numRuns: 150 },
    );
  });

  it('a rotation reports the index of the secret that signed', () => {
    fc.assert(
      fc.property(
        jsonValue,
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 20 }), { minLength: 1, maxLength: 5 }),
        fc.nat(),
        (value, keys, pick) => {
          const i = pick % keys.length;
          const text = JSON.stringify(value);
          expect(verify({ signature: sign(text, keys[i]!), secret: keys, rawBody: text })).toEqual({
            ok: true,
            form: 'raw',
            secretIndex: i,
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('one-byte changes fail', () => {
  const flip = fc.record({ position: fc.nat(), delta: fc.integer({ min: 1, max: 255 }) });

  it('of the body: never verifies over the raw bytes; over re-serializations only if it is the same message', () => {
    fc.assert(
      fc.property(
        jsonValue.filter((v) => JSON.stringify(v).length > 0),
        flip,
        (value, { position, delta }) => {
          const text = JSON.stringify(value);
          const bytes = utf8(text);
          const changed = bytes.slice();
          const at = position % changed.length;
          changed[at] = (changed[at]! ^ delta) & 0xff;
          const sig = sign(bytes, SECRET);
          expect(verify({ signature: sig, secret: SECRET, rawBody: changed, forms: ['raw'] })).toMatchObject({
            ok: false,
            reason: 'mismatch',
          });
          const r = verify({ signature: sig, secret: SECRET, rawBody: changed });
          if (r.ok) {
            // Only a change JSON cannot see (e.g. \u001b ↔ \u001B) may pass, and then by a re-serialization
            // that is byte for byte what was signed: the message is the same.
            expect(r.form).not.toBe('raw');
            const reparsed = JSON.parse(new TextDecoder().decode(changed));
            expect(JSON.stringify(reparsed)).toBe(text);
          }
        },
      ),
      { numRuns: 600 },
    );
  });

  it('of the signature: any changed byte is a mismatch; a non-hex character is malformed; case is not a change', () => {
    fc.assert(
      fc.property(
        jsonValue,
        flip,
        fc.constantFrom('g', 'z', ' ', '-', 'é', '0x'),
        (value, { position, delta }, junk) => {
          const text = JSON.stringify(value);
          const sig = sign(text, SECRET);
          const digest = Buffer.from(sig, 'hex');
          const at = position % digest.length;
          digest[at] = (digest[at]! ^ delta) & 0xff;
          expect(verify({ signature: digest.toString('hex'), secret: SECRET, rawBody: text })).toMatchObject({
            ok: false,
            reason: 'mismatch',
          });
          const c = position % sig.length;
          const withJunk = sig.slice(0, c) + junk + sig.slice(c + 1);
          expect(verify({ signature: withJunk, secret: SECRET, rawBody: text })).toMatchObject({
            ok: false,
            reason: 'malformed',
          });
          const recased = sig.slice(0, c) + sig[c]!.toUpperCase() + sig.slice(c + 1);
          expect(verify({ signature: recased, secret: SECRET, rawBody: text }).ok).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('random garbage never throws', () => {
  const garbage = fc.anything({
    withBigInt: true,
    withBoxedValues: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withTypedArray: true,
    withNullPrototype: true,
    withSparseArray: true,
  });
  const bodyish = fc.oneof(garbage, fc.string(), fc.uint8Array({ maxLength: 300 }), fc.string({ unit: 'binary' }));
  const signatureish = fc.oneof(
    garbage,
    fc.string(),
    fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: 38, maxLength: 42 }),
    fc.constant(undefined),
  );

  it('verify', () => {
    fc.assert(
      fc.property(
        signatureish,
        fc.oneof(garbage, fc.string()),
        bodyish,
        garbage,
        (signature, key, rawBody, parsedBody) => {
          const r = verify({ signature, secret: key as string, rawBody: rawBody as string, parsedBody });
          expect(typeof r.ok).toBe('boolean');
          if (!r.ok) expect(['missing', 'malformed', 'mismatch']).toContain(r.reason);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('verifyAsync', async () => {
    await fc.assert(
      fc.asyncProperty(
        signatureish,
        fc.oneof(garbage, fc.string()),
        bodyish,
        garbage,
        async (signature, key, rawBody, parsedBody) => {
          const r = await verifyAsync({ signature, secret: key as string, rawBody: rawBody as string, parsedBody });
          expect(typeof r.ok).toBe('boolean');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('explainMismatch', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.uint8Array({ maxLength: 300 }), fc.json()),
        (body) => {
          const findings = explainMismatch(body);
          expect(Array.isArray(findings)).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
