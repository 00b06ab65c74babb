// Issue 45: a receiver costs only what a request needs. Answers whose bytes never change are made once
// per receiver and written as they are; the flow waits only on a promise (a handler that returns at once
// arms no deadline timer; one that returns a promise arms one, cleared when it settles); secrets are
// keyed once, whatever their form. Every answer still reads as the status table says.
import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FrameworkAdapter } from '../src/adapter.js';
import { createReceiver, fixtures, type IdempotencyStore, type ReceiverResponse } from '../src/index.js';
import { SECRET, hmac, send, serveReceiver } from './helpers/receiver-server.js';

const text = JSON.stringify(fixtures.track);
const input = (body = text, signature = hmac(body)) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-signature': signature },
  rawBody: Buffer.from(body),
});

/** An adapter that keeps every answer the receiver hands it, as it was handed. */
function keepingAdapter(seen: ReceiverResponse[]): FrameworkAdapter<ReturnType<typeof input>, void, object> {
  return {
    request: ({ method, headers }) => ({ method, headers }),
    readBody: ({ rawBody }) => ({ rawBody }),
    context: () => ({}),
    writeAnswer: (_call, answer) => void seen.push(answer),
  };
}

afterEach(() => vi.restoreAllMocks());

describe('answers made once per receiver', () => {
  it('hands the adapter the same 200 and the same 401 for every request, and another receiver its own', async () => {
    const seen: ReceiverResponse[] = [];
    const options = { secret: SECRET, dedupe: false as const, logger: false as const, onMessage: () => {} };
    const serve = createReceiver(options).serve(keepingAdapter(seen));
    await serve(input());
    await serve(input());
    await serve(input(text, hmac(text, 'not-the-secret')));
    await serve(input(text, hmac(text, 'not-the-secret')));
    const [ok1, ok2, forged1, forged2] = seen;
    expect([ok1!.status, forged1!.status]).toEqual([200, 401]);
    expect(ok2).toBe(ok1);
    expect(forged2).toBe(forged1);
    // Read-only: an adapter cannot change the answer of the requests after it.
    expect(() => (ok1!.headers['x-changed'] = 'yes')).toThrow(TypeError);
    const other: ReceiverResponse[] = [];
    await createReceiver(options).serve(keepingAdapter(other))(input());
    expect(other[0]).not.toBe(ok1);
    expect(other[0]).toEqual(ok1);
  });

  it('writes them with their length, byte for byte what `handle` answers, over real HTTP', async () => {
    const srv = await serveReceiver({ secret: SECRET, dedupe: false, logger: false, onMessage: () => {} });
    try {
      for (const secret of [SECRET, 'not-the-secret', SECRET]) {
        const a = await send(srv.url, text, { secret });
        const expected = await srv.receiver.handle(input(text, hmac(text, secret)));
        expect([a.status, a.text]).toEqual([expected.status, expected.body]);
        expect(Number(a.headers.get('content-length'))).toBe(Buffer.byteLength(a.text));
      }
    } finally {
      await srv.close();
    }
  });
});

describe('the flow waits only on a promise', () => {
  it('answers a handler that returns at once without arming a timer', async () => {
    const receiver = createReceiver({ secret: SECRET, dedupe: false, onMessage: () => {} });
    await receiver.handle(input()); // warm: nothing lazily made on the first request is counted
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const answer = await receiver.handle(input());
    expect(answer.status).toBe(200);
    expect(timers).not.toHaveBeenCalled();
  });

  it('arms one deadline timer for a handler that returns a promise, and clears it when it settles', async () => {
    const receiver = createReceiver({ secret: SECRET, dedupe: false, onMessage: async () => {} });
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const cleared = vi.spyOn(globalThis, 'clearTimeout');
    const answer = await receiver.handle(input());
    expect(answer.status).toBe(200);
    expect(timers).toHaveBeenCalledTimes(1);
    expect(cleared).toHaveBeenCalledWith(timers.mock.results[0]!.value);
  });

  it('still answers 500 for a handler that throws at once, and releases its claim for the retry', async () => {
    let runs = 0;
    const receiver = createReceiver({
      secret: SECRET,
      logger: false,
      onError: () => {},
      onMessage: () => {
        runs++;
        if (runs === 1) throw new Error('boom');
      },
    });
    expect((await receiver.handle(input())).status).toBe(500);
    expect((await receiver.handle(input())).status).toBe(200);
    expect(JSON.parse((await receiver.handle(input())).body)).toMatchObject({ code: 'duplicate', duplicate: true });
    expect(runs).toBe(2);
  });

  it("waits on a store's thenables that are not native promises", async () => {
    const held = new Map<string, 'in-flight' | 'done'>();
    const later = <T>(value: T) => ({ then: (resolve: (v: T) => void) => setTimeout(() => resolve(value), 1) });
    const store = {
      claim: (key: string) => {
        const state = held.get(key);
        if (state === undefined) held.set(key, 'in-flight');
        return later(state ?? 'claimed');
      },
      complete: (key: string) => {
        held.set(key, 'done');
        return later(undefined);
      },
      release: (key: string) => {
        held.delete(key);
        return later(undefined);
      },
    } as unknown as IdempotencyStore;
    const receiver = createReceiver({ secret: SECRET, dedupe: { store }, onMessage: () => {} });
    expect((await receiver.handle(input())).code).toBe('ok');
    expect((await receiver.handle(input())).code).toBe('duplicate');
  });
});

describe('secrets keyed once', () => {
  it('verifies with each of several secrets, as text or bytes, and refuses any other', async () => {
    const receiver = createReceiver({
      secret: ['whsec_current', new TextEncoder().encode('whsec_previous'), 'whsec_cafè'],
      dedupe: false,
      onMessage: () => {},
      logger: false,
    });
    for (const secret of ['whsec_current', 'whsec_previous', 'whsec_cafè']) {
      expect((await receiver.handle(input(text, hmac(text, secret)))).status).toBe(200);
    }
    expect((await receiver.handle(input(text, hmac(text, 'whsec_other')))).status).toBe(401);
  });
});

describe('the body deadline armed only while a body is arriving', () => {
  /** Sends `head` and, `laterMs` after it, `rest`, on one connection; resolves with the status line. */
  function sendRaw(url: string, head: string, rest: string, laterMs: number): Promise<string> {
    const { port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(laterMs === 0 ? head + rest : head);
        if (laterMs > 0) setTimeout(() => socket.write(rest), laterMs);
      });
      let got = '';
      socket.on('data', (c: Buffer) => {
        got += c.toString();
        if (got.includes('\r\n\r\n')) {
          socket.destroy();
          resolve(got.slice(0, got.indexOf('\r\n')));
        }
      });
      socket.on('error', reject);
    });
  }
  const head = (body: string) =>
    `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Signature: ${hmac(body)}\r\nConnection: close\r\n\r\n`;

  it('arms none for a body that came with its headers, one for a body that is still arriving', async () => {
    const deadlineMs = 3000;
    const srv = await serveReceiver({ secret: SECRET, dedupe: false, deadlineMs, onMessage: () => {} });
    try {
      const timers = vi.spyOn(globalThis, 'setTimeout');
      const deadlines = () => timers.mock.calls.filter(([, ms]) => typeof ms === 'number' && ms > 1000).length;
      expect(await sendRaw(srv.url, head(text), text, 0)).toBe('HTTP/1.1 200 OK');
      expect(deadlines()).toBe(0);
      expect(await sendRaw(srv.url, head(text), text, 50)).toBe('HTTP/1.1 200 OK');
      expect(deadlines()).toBe(1);
    } finally {
      await srv.close();
    }
  });
});

describe('the usual 401 made once, the others as they are', () => {
  it('answers a malformed signature and a mismatch over a parsed body with their own messages', async () => {
    const receiver = createReceiver({ secret: SECRET, dedupe: false, logger: false, onMessage: () => {} });
    const wrong = await receiver.handle(input(text, hmac(text, 'not-the-secret')));
    expect(JSON.parse(wrong.body)).toMatchObject({
      code: 'invalid_signature',
      message: expect.stringMatching(/raw body bytes/),
    });
    const malformed = await receiver.handle(input(text, 'abc'));
    expect(malformed.status).toBe(401);
    expect(JSON.parse(malformed.body).message).toMatch(/40 hex digits/);
    const parsed = await receiver.handle({
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': hmac(text, 'not-the-secret') },
      parsedBody: JSON.parse(text) as unknown,
    });
    expect(parsed.status).toBe(401);
    expect(JSON.parse(parsed.body).message).not.toMatch(/raw body bytes/);
  });
});
