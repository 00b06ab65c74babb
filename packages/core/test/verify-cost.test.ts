// Refusing a forgery stays cheap: no JSON parse before the signature check when raw bytes are there,
// and without them each re-serialized form is made once per request whatever the number of secrets.
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createReceiver, fixtures, verify } from '../src/index.js';

const forged = 'ab'.repeat(20);
const message = { ...fixtures.track, properties: { b: 2, a: [1, { d: 'x', c: 'y' }] } };
const text = JSON.stringify(message);

afterEach(() => vi.restoreAllMocks());

describe('the cost of a forged request', () => {
  it('raw bytes present: no JSON.parse, no JSON.stringify of the body (verify and the receiver)', async () => {
    // Made before the spies: the receiver's fixed answers (its usual 401 among them) are serialized then.
    const receiver = createReceiver({ secret: ['s1', 's2'], onMessage: () => {} });
    const parse = vi.spyOn(JSON, 'parse');
    const stringify = vi.spyOn(JSON, 'stringify');
    expect(verify({ signature: forged, secret: ['s1', 's2', 's3'], rawBody: text })).toMatchObject({
      ok: false,
      reason: 'mismatch',
    });
    const input = {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': forged },
      rawBody: Buffer.from(text),
    };
    expect((await receiver.handle(input)).status).toBe(401);
    expect(parse).not.toHaveBeenCalled();
    // Nothing is serialized: the 401's bytes were made once, with the receiver (issue 45).
    expect(stringify).not.toHaveBeenCalled();
  });

  it('no raw bytes: the same serialization work with 1 secret or 8 (each form made once)', () => {
    const stringify = vi.spyOn(JSON, 'stringify');
    const calls = (secrets: string[]) => {
      stringify.mockClear();
      expect(verify({ signature: forged, secret: secrets, parsedBody: message })).toMatchObject({ ok: false });
      return stringify.mock.calls.length;
    };
    const one = calls(['s1']);
    expect(one).toBeGreaterThan(0);
    expect(calls(Array.from({ length: 8 }, (_, i) => `s${i}`))).toBe(one);
  });

  it('a correct signature under the 8th secret still verifies over the parsed body', () => {
    const secrets = Array.from({ length: 8 }, (_, i) => `s${i}`);
    const signature = createHmac('sha1', 's7').update(text).digest('hex');
    expect(verify({ signature, secret: secrets, parsedBody: message })).toEqual({
      ok: true,
      form: 'stringify',
      secretIndex: 7,
    });
  });
});
