// The dedupe lifetimes a receiver's user relies on, by their values, over real HTTP: a claim held by a
// handler that never finishes expires after 60 s (the sender's retry then runs it again); a handled
// message is a duplicate for 5 h (beyond the sender's 4 h of retries), and only then handled again.
// The store's clock is a test clock; everything else is the receiver as served.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryIdempotencyStore, fixtures } from '../src/index.js';
import { SECRET, gate, send, serveReceiver, type ServedReceiver } from './helpers/receiver-server.js';

let srv: ServedReceiver | undefined;
const release = gate();
afterEach(async () => {
  release.open();
  await srv?.receiver.drain();
  await srv?.close();
  srv = undefined;
});

const HOUR = 3_600_000;

describe('dedupe lifetimes (defaults)', () => {
  it('an in-flight claim lasts 60 s: a retry within it answers 503 in_flight, after it runs the handler again', async () => {
    let now = 1_000_000;
    const store = new MemoryIdempotencyStore({ now: () => now });
    const started: Array<() => void> = [];
    let runs = 0;
    srv = await serveReceiver({
      secret: SECRET,
      dedupe: { store },
      onError: () => {},
      onMessage: async () => {
        runs++;
        started.shift()?.();
        await release.promise; // a handler still running
      },
    });
    const body = JSON.stringify({ ...fixtures.track, messageId: 'stuck-1' });
    const running = (): Promise<void> => new Promise((resolve) => started.push(resolve));
    const firstStarted = running();
    const first = send(srv.url, body);
    await firstStarted;
    now += 59_999;
    const within = await send(srv.url, body);
    expect(within.status).toBe(503);
    expect(within.json.code).toBe('in_flight');
    expect(runs).toBe(1);
    now += 2;
    const secondStarted = running();
    const second = send(srv.url, body);
    await secondStarted;
    expect(runs).toBe(2);
    release.open();
    await Promise.all([first, second]);
  });

  it('a handled message stays a duplicate for 5 h, keyed by messageId or, without one, by the sha256 of its bytes', async () => {
    let now = 1_000_000;
    const store = new MemoryIdempotencyStore({ now: () => now });
    const keys: Array<string | undefined> = [];
    srv = await serveReceiver({
      secret: SECRET,
      dedupe: { store },
      onMessage: (_m, ctx) => void keys.push(ctx.dedupeKey),
    });
    const withId = JSON.stringify({ ...fixtures.track, messageId: 'done-1' });
    const { messageId: _, ...withoutIdMessage } = { ...fixtures.track, messageId: undefined };
    const withoutId = JSON.stringify(withoutIdMessage);
    for (const body of [withId, withoutId]) expect((await send(srv.url, body)).json.code).toBe('ok');
    now += 5 * HOUR - 1;
    for (const body of [withId, withoutId]) expect((await send(srv.url, body)).json.code).toBe('duplicate');
    now += 2;
    for (const body of [withId, withoutId]) expect((await send(srv.url, body)).json.code).toBe('ok');
    const sha = `sha256:${createHash('sha256').update(withoutId).digest('hex')}`;
    expect(keys).toEqual(['id:done-1', sha, 'id:done-1', sha]);
  });
});
