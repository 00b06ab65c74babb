// The raw bytes rule and one run per signed message, over real HTTP on every set-up: bytes changed
// after signing without changing the parsed value are refused (401) where the raw bytes are there,
// and run the handler exactly once (the others are duplicates) behind express.json().
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { fixture } from '@hookgate/core';
import { SETUPS, type RunningSetup } from './attack-setups.js';

const SECRET = 'whsec_attack_raw_bytes';
const hmac = (text: string) => createHmac('sha1', SECRET).update(text).digest('hex');

/** A track message whose bytes can be re-encoded many ways without changing its parsed value. */
function signedMessage(userId: string) {
  const message = fixture('track', {
    userId,
    properties: { amount: 100, label: 'A/b', big: 12345678901234567000 },
  } as never);
  const text = JSON.stringify(message);
  expect(text).toContain('"amount":100');
  expect(text).toContain('"big":12345678901234567000');
  return { message, text, signature: hmac(text) };
}

/** The same parsed value in other bytes; each still carries the original signature. */
function variants(text: string): Record<string, string> {
  const out: Record<string, string> = {
    'trailing space': `${text} `,
    're-indented': JSON.stringify(JSON.parse(text), null, 2),
    '1e2 for 100': text.replace('"amount":100', '"amount":1e2'),
    '\\u0041 for A': text.replace('"label":"A/b"', '"label":"\\u0041/b"'),
    '\\/ for /': text.replace('"label":"A/b"', '"label":"A\\/b"'),
    'big integer, other digits': text.replace('12345678901234567000', '12345678901234567001'),
    // Same key order once parsed (the first occurrence fixes the position, the last the value).
    'duplicate key before the signed one': text.replace('"event":', '"event":"Forged","event":'),
  };
  for (const [name, v] of Object.entries(out)) {
    expect(v, name).not.toBe(text);
    expect(JSON.parse(v), name).toEqual(JSON.parse(text));
  }
  return out;
}

async function post(url: string, body: string, signature: string) {
  const res = await fetch(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-signature': signature },
  });
  return { status: res.status, json: (await res.json().catch(() => ({}))) as { code?: string } };
}

let running: RunningSetup | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

for (const setup of SETUPS) {
  describe(setup.name, () => {
    if (setup.raw) {
      it('refuses every re-encoding of a signed body (401) and runs nothing; the signed bytes run once', async () => {
        running = await setup.start({ secret: SECRET });
        const { message, text, signature } = signedMessage(`raw-${Math.random()}`);
        for (const [name, body] of Object.entries(variants(text))) {
          const r = await post(running.url, body, signature);
          expect(r.status, name).toBe(401);
          expect(r.json.code, name).toBe('invalid_signature');
        }
        expect(running.runs).toEqual([]);
        expect((await post(running.url, text, signature)).status).toBe(200);
        expect((await post(running.url, text, signature)).json.code).toBe('duplicate');
        expect(running.runs.map((r) => r.message)).toEqual([message]);
        // A pass-through route reads exactly the bytes that matched.
        for (const run of running.runs) if (run.text !== undefined) expect(run.text).toBe(text);
      });

      it('allowReserializedWithRawBody accepts re-encodings, still once per signed message', async () => {
        running = await setup.start({ secret: SECRET, allowReserializedWithRawBody: true });
        const { text, signature } = signedMessage(`lenient-${Math.random()}`);
        const answers: Array<{ status: number; json: { code?: string } }> = [];
        for (const body of Object.values(variants(text))) answers.push(await post(running.url, body, signature));
        answers.push(await post(running.url, text, signature));
        expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
        // The first runs (a pass-through route answers with its own body); every later one is a duplicate.
        expect(answers.slice(1).map((a) => a.json.code)).toEqual(answers.slice(1).map(() => 'duplicate'));
        expect(running.runs).toHaveLength(1);
        // What the route reads is the form the signature matched (the sender's JSON.stringify text),
        // never the re-encoded bytes that carried it.
        for (const run of running.runs) if (run.text !== undefined) expect(run.text).toBe(text);
      });
    } else {
      it('accepts the signed message once whatever its bytes; every other byte form is a duplicate', async () => {
        running = await setup.start({ secret: SECRET });
        const { message, text, signature } = signedMessage(`parsed-${Math.random()}`);
        const codes: Array<string | undefined> = [];
        for (const body of Object.values(variants(text))) {
          const r = await post(running.url, body, signature);
          expect(r.status).toBe(200);
          codes.push(r.json.code);
        }
        codes.push((await post(running.url, text, signature)).json.code);
        expect(codes[0]).toBe('ok');
        expect(codes.slice(1)).toEqual(codes.slice(1).map(() => 'duplicate'));
        expect(running.runs.map((r) => r.message)).toEqual([message]);
      });
    }

    it('a forged signature of the right shape is a 401 and runs nothing', async () => {
      running = await setup.start({ secret: SECRET });
      const { text } = signedMessage(`forged-${Math.random()}`);
      const r = await post(running.url, text, 'ab'.repeat(20));
      expect(r.status).toBe(401);
      expect(running.runs).toEqual([]);
    });
  });
}
