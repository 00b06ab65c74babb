// Property: any byte change that keeps the parsed value (whitespace, 1e2 for 100, \u0041 for A, \/,
// re-indented, a big integer's other digits, duplicate keys) is refused (401) where the receiver has
// the raw bytes, and is handled exactly once behind express.json() (every other form a duplicate).
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '@hookgate/core';
import { SETUPS, type RunningSetup } from './attack-setups.js';
import { reencodeJson } from './reencode-json.js';

const SECRET = 'whsec_property_raw_bytes';
const hmac = (text: string) => createHmac('sha1', SECRET).update(text).digest('hex');

/** Properties a message may carry, as JSON.parse would return them (no -0, no undefined). */
const properties = fc
  .dictionary(
    fc.string({ maxLength: 8 }),
    fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(100, 1.5, 12345678901234567000, 'A/b')),
    { maxKeys: 6 },
  )
  .map((p) => JSON.parse(JSON.stringify(p)) as Record<string, unknown>);

let counter = 0;
function signed(props: Record<string, unknown>) {
  const message = fixture('track', { userId: `prop-${process.pid}-${counter++}`, properties: props } as never);
  const text = JSON.stringify(message);
  return { text, value: JSON.parse(text) as unknown, signature: hmac(text) };
}

async function post(url: string, body: string, signature: string) {
  const res = await fetch(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-signature': signature },
  });
  const json = (await res.json().catch(() => ({}))) as { code?: string };
  return { status: res.status, code: json.code };
}

describe('re-encoder (the generator itself)', () => {
  it('keeps the parsed value and the key order', () => {
    fc.assert(
      fc.property(properties, fc.integer(), (props, seed) => {
        const { text, value } = signed(props);
        const variant = reencodeJson(value, seed);
        expect(JSON.parse(variant)).toEqual(value);
        expect(JSON.stringify(JSON.parse(variant))).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

for (const setup of SETUPS) {
  describe(setup.name, () => {
    let running: RunningSetup;
    beforeAll(async () => {
      running = await setup.start({ secret: SECRET });
    });
    afterAll(() => running.close());

    if (setup.raw) {
      it('refuses every re-encoding that changed a byte (401); runs nothing', async () => {
        await fc.assert(
          fc.asyncProperty(properties, fc.integer(), async (props, seed) => {
            const { text, value, signature } = signed(props);
            const variant = reencodeJson(value, seed);
            fc.pre(variant !== text);
            expect(await post(running.url, variant, signature)).toEqual({ status: 401, code: 'invalid_signature' });
          }),
          { numRuns: 40 },
        );
        expect(running.runs).toEqual([]);
      }, 60_000);
    } else {
      it('handles each signed message exactly once whatever its bytes; the other forms are duplicates', async () => {
        await fc.assert(
          fc.asyncProperty(
            properties,
            fc.array(fc.integer(), { minLength: 1, maxLength: 4 }),
            fc.nat(4),
            async (props, seeds, at) => {
              const { text, value, signature } = signed(props);
              const bodies = seeds.map((seed) => reencodeJson(value, seed));
              bodies.splice(Math.min(at, bodies.length), 0, text);
              const before = running.runs.length;
              const answers = [];
              for (const body of bodies) answers.push(await post(running.url, body, signature));
              expect(answers[0]).toEqual({ status: 200, code: 'ok' });
              expect(answers.slice(1)).toEqual(answers.slice(1).map(() => ({ status: 200, code: 'duplicate' })));
              expect(running.runs.length - before).toBe(1);
              expect(running.runs.at(-1)!.message).toEqual(value);
            },
          ),
          { numRuns: 40 },
        );
      }, 60_000);
    }
  });
}
