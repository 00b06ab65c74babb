// Redis frozen (SIGSTOP to the redis-server this test started), then thawed (SIGCONT), with many
// deliveries at once through real receivers over HTTP: the claims that failed or timed out during the
// freeze reach Redis when it thaws, and the store takes every one of them back, so each message is
// accepted on its next retry instead of answering `in_flight` until `inFlightTtlMs` runs out.
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RunningRedis } from '../../../test/helpers/redis-server.js';
import { DEFAULT_KEY_PREFIX, RedisStoreError } from '../src/index.js';
import { deliver, sleep, startInstance, trackMessage, type Answer, type Instance } from './support/instances.js';

let redis: RunningRedis;
let plain: Redis;
const running: Instance[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  plain = new Redis(redis.url);
  plain.on('error', () => undefined);
});

afterEach(async () => {
  redis.resume(); // never leave it frozen for the next test
  await Promise.all(running.splice(0).map((i) => i.close()));
  await plain.flushall();
});

afterAll(async () => {
  plain?.disconnect();
  await redis?.stop();
});

async function instances(n: number, commandTimeoutMs = 1000): Promise<Instance[]> {
  const list: Instance[] = [];
  // A 60 s in-flight TTL: far beyond the test, so only a release can free a late claim.
  for (let i = 0; i < n; i++)
    list.push(await startInstance({ name: `i${i}`, redisUrl: redis.url, commandTimeoutMs, inFlightTtlMs: 60_000 }));
  running.push(...list);
  return list;
}

/** Delivers each message while Redis is frozen for `freezeMs`, then thaws it; returns the answers. */
async function duringFreeze(
  urls: string[],
  messages: ReturnType<typeof trackMessage>[],
  freezeMs: number,
): Promise<Answer[]> {
  // As in production: the claim script is cached (messages were handled before), the release script
  // may not be (no handler failed yet). A late `NOSCRIPT` answer must not leave a claim behind.
  await plain.script('FLUSH');
  for (const url of urls) expect((await deliver(url, trackMessage())).code).toBe('ok');
  redis.pause();
  try {
    const answers = Promise.all(messages.map((m, i) => deliver(urls[i % urls.length]!, m)));
    await sleep(freezeMs);
    return await answers;
  } finally {
    redis.resume();
  }
}

describe('Redis frozen, then back', () => {
  it('63 concurrent deliveries get 503 during a 2.5 s freeze; after the thaw each is accepted on its next retry, on the same instance', async () => {
    const [a] = await instances(1);
    const messages = Array.from({ length: 63 }, () => trackMessage());
    // Longer than the client's own 1 s command timeout: the claims and the releases behind them are
    // given up by ioredis while they still sit, unanswered, in the socket.
    const answers = await duringFreeze([a!.url], messages, 2500);
    expect(answers.map((x) => x.code)).toEqual(messages.map(() => 'store_unavailable'));
    expect(a!.handled).toHaveLength(1); // the warm-up message only
    a!.handled.length = 0;
    expect(a!.errors.every((e) => e.error instanceof RedisStoreError && e.info.phase === 'store')).toBe(true);

    // The next retry of each, right after the thaw: run once (200 ok), none in_flight.
    const retries = await Promise.all(messages.map((m) => deliver(a!.url, m)));
    expect(retries.filter((r) => r.code !== 'ok').map((r) => r.code)).toEqual([]);
    expect([...a!.handled].sort()).toEqual(messages.map((m) => m.messageId).sort());
    // And the retry after that is a duplicate.
    const again = await Promise.all(messages.slice(0, 5).map((m) => deliver(a!.url, m)));
    expect(again.map((r) => r.code)).toEqual(Array(5).fill('duplicate'));
  });

  it('two instances: a message first tried on one is accepted on the other one retry after the thaw', async () => {
    const [a, b] = await instances(2);
    const messages = Array.from({ length: 40 }, () => trackMessage());
    const answers = await duringFreeze([a!.url, b!.url], messages, 2500);
    expect(new Set(answers.map((x) => x.code))).toEqual(new Set(['store_unavailable']));

    // The sender's first retry comes seconds later (see the emulator's schedule); one second is enough
    // here for every late claim to have been taken back, and each retry goes to the OTHER instance.
    await sleep(1000);
    const retries = await Promise.all(messages.map((m, i) => deliver([b!.url, a!.url][i % 2]!, m)));
    expect(retries.filter((r) => r.code !== 'ok').map((r) => r.code)).toEqual([]);
    const ids = new Set(messages.map((m) => String(m.messageId)));
    // Each run exactly once (the warm-up messages aside).
    expect([...a!.handled, ...b!.handled].filter((id) => ids.has(id)).sort()).toEqual([...ids].sort());
    // No key is left in flight: each one is done.
    const values = await Promise.all(messages.map((m) => plain.get(`${DEFAULT_KEY_PREFIX}id:${m.messageId}`)));
    expect(values).toEqual(messages.map(() => 'done'));
  });

  it('frozen again while the late claims are being taken back: they are still taken back after the second thaw', async () => {
    const [a, b] = await instances(2);
    const messages = Array.from({ length: 20 }, () => trackMessage());
    await duringFreeze([a!.url], messages, 2500);
    // Frozen again at once, before the releases can run; then thawed for good.
    redis.pause();
    await sleep(1500);
    redis.resume();
    await sleep(1000);
    const retries = await Promise.all(messages.map((m) => deliver(b!.url, m)));
    expect(retries.filter((r) => r.code !== 'ok').map((r) => r.code)).toEqual([]);
  });

  it('a short freeze (shorter than the command timeouts) ends the same way', async () => {
    const [a, b] = await instances(2, 200);
    const messages = Array.from({ length: 30 }, () => trackMessage());
    await duringFreeze([a!.url], messages, 400);
    await sleep(500);
    const retries = await Promise.all(messages.map((m) => deliver(b!.url, m)));
    expect(retries.filter((r) => r.code !== 'ok').map((r) => r.code)).toEqual([]);
  });
});
