// The pieces adapters build on: precheck (no body needed), accept (verify, validate, claim) and
// run (a handler under the same mode, deadline and dedupe rules as `handle`).
import { describe, expect, it } from 'vitest';
import type { AcceptResult } from '../src/adapter.js';
import { createReceiver, extraFields, fixtures } from '../src/index.js';
import { SECRET, delay, hmac } from './helpers/receiver-server.js';

const headers = (body: string, extra: Record<string, string> = {}) => ({
  'content-type': 'application/json',
  'content-length': String(Buffer.byteLength(body)),
  'x-signature': hmac(body),
  ...extra,
});

function expectMessage<T>(r: AcceptResult<T>): Extract<AcceptResult<T>, { kind: 'message' }> {
  if (r.kind === 'response') throw new Error(`expected a message, got ${r.response.status} ${r.response.body}`);
  if (r.kind === 'batch') throw new Error('expected a message, got a batch');
  return r;
}

describe('precheck', () => {
  const receiver = createReceiver({ secret: SECRET, maxBodyBytes: 100 });

  it('answers what needs no body, and lets the rest through', () => {
    const get = receiver.precheck('GET', {});
    expect([get?.status, get?.code, get?.headers.allow]).toEqual([405, 'method_not_allowed', 'POST']);
    expect(receiver.precheck('POST', { 'content-type': 'text/plain' })?.status).toBe(415);
    expect(receiver.precheck('POST', { 'content-type': 'application/json', 'content-length': '101' })?.status).toBe(
      413,
    );
    expect(receiver.precheck('POST', { 'content-type': 'application/json', 'content-length': '100' })).toBeUndefined();
    expect(receiver.precheck('post', new Headers({ 'Content-Type': 'application/json' }))).toBeUndefined();
  });
});

describe('accept + run', () => {
  it('accepts a signed message with a context, and run answers 200 then remembers it', async () => {
    const receiver = createReceiver({ secret: SECRET });
    const body = JSON.stringify({ ...fixtures.track, messageId: 'acc-1' });
    const accepted = expectMessage(await receiver.accept({ method: 'POST', headers: headers(body), rawBody: body }));
    expect(accepted.message).toEqual(JSON.parse(body));
    expect(accepted.context.dedupeKey).toBe('id:acc-1');
    expect(accepted.context.verification).toEqual({ form: 'raw', secretIndex: 0 });
    const seen: string[] = [];
    const answer = await receiver.run(accepted, (m) => void seen.push(m.type));
    expect([answer.status, answer.code]).toEqual([200, 'ok']);
    expect(seen).toEqual(['track']);
    const again = await receiver.accept({ method: 'POST', headers: headers(body), rawBody: body });
    expect(again.kind === 'response' && again.response.code).toBe('duplicate');
  });

  it('answers the refusals as responses', async () => {
    const receiver = createReceiver({ secret: SECRET });
    const body = JSON.stringify(fixtures.page);
    const bad = await receiver.accept({
      method: 'POST',
      headers: headers(body, { 'x-signature': hmac(body, 'x') }),
      rawBody: body,
    });
    expect(bad.kind === 'response' && bad.response.status).toBe(401);
    const parsedOnly = await receiver.accept({ method: 'POST', headers: headers(body), parsedBody: JSON.parse(body) });
    expect(parsedOnly.kind).toBe('message');
    const none = await receiver.accept({
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': hmac('') },
    });
    expect(none.kind === 'response' && none.response.code).toBe('invalid_json');
  });

  it('a header given as null (plain JavaScript, some serverless events) is absent: no signature is 401 missing_signature', async () => {
    const receiver = createReceiver({ secret: SECRET, logger: false });
    const body = JSON.stringify(fixtures.page);
    const headers = { 'content-type': 'application/json', 'x-signature': null } as unknown as Record<string, string>;
    const r = await receiver.handle({ method: 'POST', headers, rawBody: body });
    expect([r.status, r.code]).toEqual([401, 'missing_signature']);
  });

  it('run: a failing handler answers 500, reports, and frees the key for the retry', async () => {
    const errors: unknown[] = [];
    const receiver = createReceiver({ secret: SECRET, onError: (e) => void errors.push(e) });
    const body = JSON.stringify({ ...fixtures.group, messageId: 'acc-2' });
    const first = expectMessage(await receiver.accept({ method: 'POST', headers: headers(body), rawBody: body }));
    const answer = await receiver.run(first, () => {
      throw new Error('next() failed');
    });
    expect([answer.status, answer.code]).toEqual([500, 'handler_error']);
    expect((errors[0] as Error).message).toBe('next() failed');
    expect((await receiver.accept({ method: 'POST', headers: headers(body), rawBody: body })).kind).toBe('message');
  });

  it('run: a slow handler meets the deadline (503, signal fired) and its late success still counts', async () => {
    const receiver = createReceiver({ secret: SECRET, deadlineMs: 60 });
    const body = JSON.stringify({ ...fixtures.identify, messageId: 'acc-3' });
    const accepted = expectMessage(await receiver.accept({ method: 'POST', headers: headers(body), rawBody: body }));
    const answer = await receiver.run(accepted, async () => {
      await delay(120);
    });
    expect([answer.status, answer.code]).toEqual([503, 'deadline_exceeded']);
    expect(accepted.context.signal.aborted).toBe(true);
    await receiver.drain();
    const retry = await receiver.accept({ method: 'POST', headers: headers(body), rawBody: body });
    expect(retry.kind === 'response' && retry.response.code).toBe('duplicate');
  });

  it('run in acknowledge mode answers at once and finishes in the background', async () => {
    const receiver = createReceiver({ secret: SECRET, mode: 'acknowledge' });
    const body = JSON.stringify(fixtures.delete);
    const accepted = expectMessage(await receiver.accept({ method: 'POST', headers: headers(body), rawBody: body }));
    let done = false;
    const answer = await receiver.run(accepted, async () => {
      await delay(50);
      done = true;
    });
    expect(answer.code).toBe('ok');
    expect(done).toBe(false);
    await receiver.drain();
    expect(done).toBe(true);
  });
});

describe("the input's parse hook (how adapters keep their framework's JSON protections)", () => {
  const receiver = createReceiver({ secret: SECRET, dedupe: false });
  const base = JSON.stringify({ ...fixtures.track, messageId: 'parse-hook-1' });
  const poisoned = `${base.slice(0, -1)},"__proto__":{"isAdmin":true}}`;
  /** Refuses `__proto__` keys, as Fastify's default parser does. */
  const strictParse = (text: string) => {
    const value: unknown = JSON.parse(text);
    if (/"__proto__"\s*:/.test(text)) throw new SyntaxError('Object contains forbidden prototype property');
    return value;
  };

  it('runs only after the signature is verified: an unsigned body never reaches it', async () => {
    let calls = 0;
    const parse = (text: string) => (calls++, JSON.parse(text));
    const unsigned = await receiver.accept({
      method: 'POST',
      headers: headers('{"type":', { 'x-signature': '' }),
      rawBody: '{"type":',
      parse,
    });
    expect(unsigned.kind === 'response' && unsigned.response.status).toBe(401);
    const wrong = await receiver.accept({
      method: 'POST',
      headers: headers(base, { 'x-signature': hmac('other') }),
      rawBody: base,
      parse,
    });
    expect(wrong.kind === 'response' && wrong.response.status).toBe(401);
    expect(calls).toBe(0);
    expectMessage(await receiver.accept({ method: 'POST', headers: headers(base), rawBody: Buffer.from(base), parse }));
    expect(calls).toBe(1);
  });

  it('its throw is the 400 invalid_json answer, with its message; its value is the message', async () => {
    const refused = await receiver.accept({
      method: 'POST',
      headers: headers(poisoned),
      rawBody: poisoned,
      parse: strictParse,
    });
    if (refused.kind !== 'response') throw new Error('expected a refusal');
    expect([refused.response.status, refused.response.code]).toEqual([400, 'invalid_json']);
    expect(refused.response.body).toContain('forbidden prototype property');
    const marked = (text: string) => ({ ...(JSON.parse(text) as object), messageId: 'from-parse' });
    const accepted = expectMessage(
      await receiver.accept({ method: 'POST', headers: headers(base), rawBody: base, parse: marked }),
    );
    expect(extraFields(accepted.message).messageId).toBe('from-parse');
  });

  it('without it, JSON.parse reads a signed __proto__ key as data (why the Fastify adapter passes its own parser)', async () => {
    const accepted = expectMessage(
      await receiver.accept({ method: 'POST', headers: headers(poisoned), rawBody: poisoned }),
    );
    expect(Object.keys(accepted.message)).toContain('__proto__');
  });
});
