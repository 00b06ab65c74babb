// The deadline counts from arrival: a signed body trickled over real HTTP, still arriving at the
// deadline, is answered 503 deadline_exceeded (the sender retries) before 5 s from the request's
// start, the connection is closed, and the handler never runs — on every set-up that reads the body.
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { fixture } from '@hookgate/core';
import { SETUPS, type RunningSetup } from './attack-setups.js';
import { trickleUpload } from './trickle-upload.js';

const SECRET = 'whsec_attack_deadline';
const hmac = (text: string) => createHmac('sha1', SECRET).update(text).digest('hex');

function signedBody() {
  const text = JSON.stringify(
    fixture('track', { userId: `slow-${Math.random()}`, properties: { pad: 'x'.repeat(400) } } as never),
  );
  return { text, signature: hmac(text) };
}

const running: RunningSetup[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

const READERS = SETUPS.filter((s) => !s.frameworkReadsBody);

describe('default 4 s deadline, a body trickled over 8 s', () => {
  it.each(READERS.map((s) => [s.name, s] as const))(
    '%s: 503 deadline_exceeded before 5 s, connection closed, handler not run',
    async (_name, setup) => {
      const r = await setup.start({ secret: SECRET });
      running.push(r);
      const { text, signature } = signedBody();
      const outcome = await trickleUpload(r.url, text, signature, { everyMs: 100, totalMs: 8000 });
      expect(outcome).toMatchObject({ status: 503, code: 'deadline_exceeded', connection: 'close' });
      expect(outcome.answeredAfterMs).toBeGreaterThanOrEqual(3900);
      expect(outcome.answeredAfterMs).toBeLessThan(5000);
      expect(outcome.closedAfterAnswerMs).toBeLessThan(3000);
      // The rest of the body never reaches a handler, now or later.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(r.runs).toEqual([]);
    },
    20_000,
  );
});

describe('a shorter deadline (1 s)', () => {
  for (const setup of READERS) {
    it(`${setup.name}: a slow body within the deadline is handled; one still arriving is 503`, async () => {
      const r = await setup.start({ secret: SECRET, deadlineMs: 1000 });
      running.push(r);
      const quick = signedBody();
      // About 20 bytes at 20 ms: done well within 1 s.
      const fast = await trickleUpload(r.url, quick.text, quick.signature, { everyMs: 20, totalMs: 400 });
      expect(fast.status).toBe(200);
      expect(r.runs).toHaveLength(1);
      const slow = signedBody();
      const late = await trickleUpload(r.url, slow.text, slow.signature, { everyMs: 50, totalMs: 3000 });
      expect(late).toMatchObject({ status: 503, code: 'deadline_exceeded' });
      expect(late.answeredAfterMs).toBeLessThan(2000);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(r.runs).toHaveLength(1);
    }, 20_000);
  }
});

describe('express after express.json(): the parser reads the body before hookgate (documented)', () => {
  it("the body's arrival time is the parser's, outside hookgate's budget: a trickled body is handled once it has arrived", async () => {
    const setup = SETUPS.find((s) => s.frameworkReadsBody)!;
    const r = await setup.start({ secret: SECRET, deadlineMs: 1000 });
    running.push(r);
    const { text, signature } = signedBody();
    const outcome = await trickleUpload(r.url, text, signature, { everyMs: 50, totalMs: 1500 });
    expect(outcome.status).toBe(200);
    expect(outcome.answeredAfterMs).toBeGreaterThanOrEqual(1400);
    expect(r.runs).toHaveLength(1);
  }, 20_000);
});
