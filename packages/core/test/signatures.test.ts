// sign / signAsync / verify / verifyAsync (seed §5), against digests computed here with node:crypto.
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  SIGNATURE_HEADER,
  fixtures,
  sign,
  signAsync,
  verify,
  verifyAsync,
  type VerifyInput,
  type VerifyResult,
} from '../src/index.js';
import { SIGNATURE_FORMS, constantTimeEqual } from '../src/internal.js';

const SECRET = 'whsec_test_7f3a';
const hmac = (body: string | Uint8Array, secret: string | Uint8Array = SECRET) =>
  createHmac('sha1', secret)
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest('hex');

/** Key-sorted JSON, written here independently of core's fast-json-stable-stringify. */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Runs the same input through verify and verifyAsync and checks they agree. */
async function both(input: VerifyInput): Promise<VerifyResult> {
  const a = verify(input);
  const b = await verifyAsync(input);
  expect(b).toEqual(a);
  return a;
}

describe('sign', () => {
  it('matches RFC 2202 test case 2 (HMAC-SHA1, key "Jefe")', async () => {
    const expected = 'effcdf6ae5eb2fa2d27416d5f184df9c259a7c79';
    expect(sign('what do ya want for nothing?', 'Jefe')).toBe(expected);
    expect(await signAsync('what do ya want for nothing?', 'Jefe')).toBe(expected);
  });

  it.each([
    ['a fixture', JSON.stringify(fixtures.track)],
    ['non-ASCII text', '{"note":"café ☕ — 日本 🎉"}'],
    ['an empty body', ''],
    ['32 KB', JSON.stringify({ pad: 'x'.repeat(32 * 1024) })],
  ])('signs %s as lowercase hex HMAC-SHA1 over its UTF-8 bytes', async (_name, body) => {
    const expected = hmac(body);
    expect(sign(body, SECRET)).toBe(expected);
    expect(sign(body, SECRET)).toMatch(/^[0-9a-f]{40}$/);
    expect(await signAsync(body, SECRET)).toBe(expected);
    const bytes = new TextEncoder().encode(body);
    expect(sign(bytes, SECRET)).toBe(expected);
    expect(sign(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), SECRET)).toBe(expected);
    expect(await signAsync(bytes, SECRET)).toBe(expected);
  });

  it('takes a secret as bytes, and a non-ASCII secret as its UTF-8 bytes', async () => {
    const key = new Uint8Array([0, 1, 2, 250, 255]);
    expect(sign('{}', key)).toBe(hmac('{}', key));
    expect(await signAsync('{}', key)).toBe(hmac('{}', key));
    expect(sign('{}', 'clé ✓')).toBe(hmac('{}', Buffer.from('clé ✓', 'utf8')));
    expect(await signAsync('{}', 'clé ✓')).toBe(hmac('{}', Buffer.from('clé ✓', 'utf8')));
  });

  it('names the header in lowercase', () => {
    expect(SIGNATURE_HEADER).toBe('x-signature');
  });
});

describe('verify and verifyAsync', () => {
  const body = JSON.stringify(fixtures.track);
  const sig = hmac(body);

  it('accept the raw body, reporting the form and the secret', async () => {
    expect(await both({ signature: sig, secret: SECRET, rawBody: body })).toEqual({
      ok: true,
      form: 'raw',
      secretIndex: 0,
    });
    expect(await both({ signature: sig, secret: SECRET, rawBody: new TextEncoder().encode(body) })).toEqual({
      ok: true,
      form: 'raw',
      secretIndex: 0,
    });
  });

  it('accept uppercase hex (a documented decision: hex case carries no secret) and surrounding spaces', async () => {
    expect((await both({ signature: sig.toUpperCase(), secret: SECRET, rawBody: body })).ok).toBe(true);
    expect((await both({ signature: ` ${sig} `, secret: SECRET, rawBody: body })).ok).toBe(true);
  });

  it('accept tabs and line breaks around the signature, but no other blanks, and none inside', async () => {
    expect((await both({ signature: `\t${sig}\r\n`, secret: SECRET, rawBody: body })).ok).toBe(true);
    expect(await both({ signature: `\u00a0${sig}`, secret: SECRET, rawBody: body })).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
    expect(
      await both({ signature: `${sig.slice(0, 20)} ${sig.slice(20)}`, secret: SECRET, rawBody: body }),
    ).toMatchObject({ ok: false, reason: 'malformed' });
    const r = await both({ signature: ` ${'a'.repeat(39)} `, secret: SECRET, rawBody: body });
    if (!r.ok) expect(r.message).toBe('X-Signature must be 40 hex digits (HMAC-SHA1); got 39 characters.');
  });

  it.each([
    ['too short', 'abc123'],
    ['one digit short', 'a'.repeat(39)],
    ['one digit long', 'a'.repeat(41)],
    ['non-hex', 'g'.repeat(40)],
    ['a prefixed form', `sha1=${'a'.repeat(40)}`],
    ['SHA-256 length', 'a'.repeat(64)],
  ])('call a %s signature malformed', async (_name, signature) => {
    const r = await both({ signature, secret: SECRET, rawBody: body });
    expect(r).toMatchObject({ ok: false, reason: 'malformed' });
    if (!r.ok) expect(r.message).toContain('40 hex digits');
  });

  it.each([[undefined], [null], ['']])('call a missing signature (%j) missing', async (signature) => {
    expect(await both({ signature, secret: SECRET, rawBody: body })).toMatchObject({ ok: false, reason: 'missing' });
  });

  it('call a wrong signature a mismatch', async () => {
    const wrong = hmac(body, 'another-secret');
    expect(await both({ signature: wrong, secret: SECRET, rawBody: body })).toMatchObject({
      ok: false,
      reason: 'mismatch',
    });
    expect(await both({ signature: sig, secret: SECRET, rawBody: `${body} `, forms: ['raw'] })).toMatchObject({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('try every secret of a rotation and report which matched', async () => {
    const old = 'whsec_old';
    const signedWithOld = hmac(body, old);
    expect(await both({ signature: signedWithOld, secret: [SECRET, old], rawBody: body })).toEqual({
      ok: true,
      form: 'raw',
      secretIndex: 1,
    });
    expect(await both({ signature: sig, secret: [SECRET, old], rawBody: body })).toEqual({
      ok: true,
      form: 'raw',
      secretIndex: 0,
    });
    expect(await both({ signature: hmac(body, 'neither'), secret: [SECRET, old], rawBody: body })).toMatchObject({
      ok: false,
      reason: 'mismatch',
    });
  });

  describe('body forms: raw bytes alone when present, else stringify → sorted', () => {
    const message = { ...fixtures.track, properties: { b: 2, a: 1, nested: { z: true, y: [3, { d: 1, c: 2 }] } } };
    const compact = JSON.stringify(message);
    const pretty = JSON.stringify(message, null, 2);
    const sorted = sortedJson(message);

    it('the forms are raw, stringify, sorted', () => {
      expect(SIGNATURE_FORMS).toEqual(['raw', 'stringify', 'sorted']);
      expect(sorted).not.toBe(compact);
    });

    it('raw bytes present: re-encoded bytes (pretty-printed) are refused though their JSON.stringify form was signed', async () => {
      const r = await both({ signature: hmac(compact), secret: SECRET, rawBody: pretty });
      expect(r).toMatchObject({ ok: false, reason: 'mismatch' });
      if (!r.ok) expect(r.message).toContain('raw body bytes');
      // Also when a parsed body is given beside them: the raw bytes decide.
      expect(
        await both({ signature: hmac(compact), secret: SECRET, rawBody: pretty, parsedBody: JSON.parse(pretty) }),
      ).toMatchObject({ ok: false });
    });

    it('allowReserialized: re-encoded raw bytes may match a re-serialized form, when asked for plainly', async () => {
      expect(
        await both({ signature: hmac(compact), secret: SECRET, rawBody: pretty, allowReserialized: true }),
      ).toEqual({ ok: true, form: 'stringify', secretIndex: 0 });
      expect(await both({ signature: hmac(sorted), secret: SECRET, rawBody: pretty, allowReserialized: true })).toEqual(
        { ok: true, form: 'sorted', secretIndex: 0 },
      );
    });

    it('stringify: only the parsed body is left (a body parser ran first)', async () => {
      expect(await both({ signature: hmac(compact), secret: SECRET, parsedBody: JSON.parse(pretty) })).toEqual({
        ok: true,
        form: 'stringify',
        secretIndex: 0,
      });
    });

    it('sorted: the body was signed over a key-sorted serialization', async () => {
      expect(await both({ signature: hmac(sorted), secret: SECRET, parsedBody: message })).toEqual({
        ok: true,
        form: 'sorted',
        secretIndex: 0,
      });
      expect(await both({ signature: hmac(sorted), secret: SECRET, rawBody: pretty })).toMatchObject({
        ok: false,
        reason: 'mismatch',
      });
    });

    it('raw wins when the raw bytes are what was signed, even if they do not round-trip', async () => {
      const raw = '{"type":"track","price":1.0,"url":"https:\\/\\/x"}';
      expect(await both({ signature: hmac(raw), secret: SECRET, rawBody: raw, parsedBody: JSON.parse(raw) })).toEqual({
        ok: true,
        form: 'raw',
        secretIndex: 0,
      });
      expect(await both({ signature: hmac(raw), secret: SECRET, parsedBody: JSON.parse(raw) })).toMatchObject({
        ok: false,
        reason: 'mismatch',
      });
    });

    it('the forms option limits what is tried', async () => {
      expect(await both({ signature: hmac(compact), secret: SECRET, rawBody: pretty, forms: ['raw'] })).toMatchObject({
        ok: false,
        reason: 'mismatch',
      });
      expect(
        await both({ signature: hmac(sorted), secret: SECRET, parsedBody: message, forms: ['raw', 'stringify'] }),
      ).toMatchObject({ ok: false, reason: 'mismatch' });
      expect(
        await both({
          signature: hmac(compact),
          secret: SECRET,
          rawBody: compact,
          forms: ['sorted', 'stringify'],
          allowReserialized: true,
        }),
      ).toEqual({ ok: true, form: 'stringify', secretIndex: 0 });
      // Raw bytes present and `raw` not among the forms: nothing can match.
      const none = await both({
        signature: hmac(compact),
        secret: SECRET,
        rawBody: compact,
        forms: ['sorted', 'stringify'],
      });
      expect(none).toMatchObject({ ok: false, reason: 'mismatch' });
    });

    it('an unknown form name is tried as nothing, not as another form', async () => {
      const forms = ['bogus'] as unknown as ['raw'];
      expect(await both({ signature: hmac(sorted), secret: SECRET, parsedBody: message, forms })).toMatchObject({
        ok: false,
        reason: 'mismatch',
      });
    });

    it('rotation and forms combine: secret order is tried within each form', async () => {
      expect(
        await both({ signature: hmac(compact, 'old'), secret: ['new', 'old'], parsedBody: JSON.parse(pretty) }),
      ).toEqual({ ok: true, form: 'stringify', secretIndex: 1 });
      expect(
        await both({
          signature: hmac(compact, 'old'),
          secret: ['new', 'old'],
          rawBody: pretty,
          allowReserialized: true,
        }),
      ).toEqual({ ok: true, form: 'stringify', secretIndex: 1 });
    });
  });

  it('fail with "mismatch" and a clear message when there is no body or no usable secret', async () => {
    const noBody = await both({ signature: sig, secret: SECRET });
    expect(noBody).toMatchObject({ ok: false, reason: 'mismatch' });
    if (!noBody.ok) expect(noBody.message).toContain('no body');
    for (const secret of [[], '', [SECRET, '']] as unknown as string[]) {
      const r = await both({ signature: sig, secret, rawBody: body });
      expect(r).toMatchObject({ ok: false, reason: 'mismatch' });
      if (!r.ok) expect(r.message).toContain('secret');
    }
  });
});

describe('hostile input never throws and never verifies', () => {
  const body = JSON.stringify(fixtures.identify);
  const sig = hmac(body);

  it.each([
    ['an array of signatures (a repeated header)', [sig, sig]],
    ['a number', 1234],
    ['an object', { toString: () => sig }],
    ['a boolean', true],
    ['a symbol', Symbol('x')],
    ['a function', () => sig],
    ['a BigInt', 10n],
    ['a huge string', 'a'.repeat(1_000_000)],
    ['a string with a NUL', `${sig.slice(0, 39)}\0`],
  ])('signature as %s → malformed', async (_name, signature) => {
    expect(await both({ signature, secret: SECRET, rawBody: body })).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it.each([
    ['a BigInt', { n: 10n }],
    [
      'a cyclic object',
      (() => {
        const o: Record<string, unknown> = { type: 'track' };
        o.self = o;
        return o;
      })(),
    ],
    ['a function', () => 1],
    ['a symbol', Symbol('s')],
  ])('parsedBody as %s → mismatch, no throw', async (_name, parsedBody) => {
    expect(await both({ signature: sig, secret: SECRET, parsedBody })).toMatchObject({ ok: false, reason: 'mismatch' });
  });

  it('a raw body that still verifies is not spoiled by a hostile parsedBody', async () => {
    expect(await both({ signature: sig, secret: SECRET, rawBody: body, parsedBody: { n: 10n } })).toEqual({
      ok: true,
      form: 'raw',
      secretIndex: 0,
    });
  });

  it.each([
    ['a number', 20],
    ['an object', { length: 3 }],
    ['null', null],
    ['an array holding a number', [20]],
    ['a boolean', true],
  ])('secret as %s → refused (never used as a key), sync and async alike', async (_name, secret) => {
    // A number must not become a key of that many zero bytes, nor an object an empty key.
    const zeros =
      typeof secret === 'number'
        ? new Uint8Array(secret)
        : Array.isArray(secret)
          ? new Uint8Array(secret[0] as number)
          : new Uint8Array(0);
    const signature = hmac(body, zeros);
    const r = await both({ signature, secret: secret as unknown as string, rawBody: body });
    expect(r).toMatchObject({ ok: false, reason: 'mismatch' });
  });

  it.each([
    ['a number', 5],
    ['an object', { length: 2 ** 40 }],
    ['null', null],
  ])('rawBody as %s → no throw, no match', async (_name, rawBody) => {
    const r = await both({ signature: hmac(''), secret: SECRET, rawBody: rawBody as unknown as string });
    expect(r.ok).toBe(false);
  });
});

describe('constant-time comparison', () => {
  afterEach(() => vi.restoreAllMocks());

  it('constantTimeEqual compares bytes, length first', () => {
    const a = new Uint8Array([1, 2, 3, 4]);
    expect(constantTimeEqual(a, new Uint8Array([1, 2, 3, 4]))).toBe(true);
    expect(constantTimeEqual(a, new Uint8Array([0, 2, 3, 4]))).toBe(false);
    expect(constantTimeEqual(a, new Uint8Array([1, 2, 3, 5]))).toBe(false);
    expect(constantTimeEqual(a, new Uint8Array([1, 2, 3]))).toBe(false);
    expect(constantTimeEqual(new Uint8Array(0), new Uint8Array(0))).toBe(true);
  });

  it('verify compares digests with node:crypto timingSafeEqual, never with ===', () => {
    const nodeCrypto = process.getBuiltinModule('node:crypto');
    const spy = vi.spyOn(nodeCrypto, 'timingSafeEqual');
    const body = JSON.stringify(fixtures.page);
    expect(verify({ signature: hmac(body), secret: SECRET, rawBody: body }).ok).toBe(true);
    expect(verify({ signature: hmac(body, 'x'), secret: SECRET, rawBody: body }).ok).toBe(false);
    expect(spy).toHaveBeenCalled();
    for (const [a, b] of spy.mock.calls) {
      expect((a as Uint8Array).byteLength).toBe(20);
      expect((b as Uint8Array).byteLength).toBe(20);
    }
  });
});
