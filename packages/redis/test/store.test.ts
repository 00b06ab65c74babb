// RedisIdempotencyStore against a real redis-server: atomic claim, TTLs, compare-and-delete release,
// one round trip per claim, and failing fast when Redis is away.
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RunningRedis } from '../../../test/helpers/redis-server.js';
import {
  CLAIM_SCRIPT,
  DEFAULT_KEY_PREFIX,
  RECOMMENDED_REDIS_OPTIONS,
  RedisIdempotencyStore,
  RedisStoreError,
} from '../src/index.js';
import { inspect, sleep } from './support/instances.js';

let redis: RunningRedis;
let plain: Redis;
const stores: RedisIdempotencyStore[] = [];

function newStore(options: Partial<ConstructorParameters<typeof RedisIdempotencyStore>[0]> = {}) {
  const store = new RedisIdempotencyStore({
    connection: redis.url,
    logger: { warn: () => undefined },
    ...options,
  });
  stores.push(store);
  return store;
}

beforeAll(async () => {
  redis = await startRedisServer();
  plain = new Redis(redis.url);
  plain.on('error', () => undefined); // it reconnects while a test stops Redis
});

afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

afterAll(async () => {
  plain?.disconnect();
  await redis?.stop();
});

describe('claim, complete, release', () => {
  it('claims once, reports in-flight to a second store, done after complete', async () => {
    const a = newStore();
    const b = newStore();
    await Promise.all([a.ready(), b.ready()]);
    expect(await a.claim('id:m1', 60_000)).toBe('claimed');
    expect(await b.claim('id:m1', 60_000)).toBe('in-flight');
    expect(await a.claim('id:m1', 60_000)).toBe('in-flight');
    const claimed = await inspect(plain, `${DEFAULT_KEY_PREFIX}id:m1`);
    expect(claimed.value).toMatch(/^in-flight:[0-9a-f]{12}:\w+$/);
    expect(claimed.pttl).toBeGreaterThan(55_000);
    expect(claimed.pttl).toBeLessThanOrEqual(60_000);

    await a.complete('id:m1', 5 * 60 * 60 * 1000);
    const done = await inspect(plain, `${DEFAULT_KEY_PREFIX}id:m1`);
    expect(done.value).toBe('done');
    expect(done.pttl).toBeGreaterThan(5 * 60 * 60 * 1000 - 5000);
    expect(await b.claim('id:m1', 60_000)).toBe('done');
  });

  it('release frees the claim, so the retry claims it again', async () => {
    const a = newStore();
    const b = newStore();
    await Promise.all([a.ready(), b.ready()]);
    expect(await a.claim('id:m2', 60_000)).toBe('claimed');
    await a.release('id:m2');
    expect(await plain.exists(`${DEFAULT_KEY_PREFIX}id:m2`)).toBe(0);
    expect(await b.claim('id:m2', 60_000)).toBe('claimed');
  });

  it('a late release never erases done', async () => {
    const a = newStore();
    await a.ready();
    expect(await a.claim('id:m3', 60_000)).toBe('claimed');
    // Another path marks it done (e.g. the handler finished in the background after a deadline).
    await plain.set(`${DEFAULT_KEY_PREFIX}id:m3`, 'done', 'PX', 60_000);
    await a.release('id:m3');
    expect(await plain.get(`${DEFAULT_KEY_PREFIX}id:m3`)).toBe('done');
  });

  it("an expired claim's release does not free the claim another instance took since", async () => {
    const a = newStore();
    const b = newStore();
    await Promise.all([a.ready(), b.ready()]);
    expect(await a.claim('id:m4', 150)).toBe('claimed');
    await sleep(250); // a's claim expired (its instance was too slow)
    expect(await b.claim('id:m4', 60_000)).toBe('claimed');
    await a.release('id:m4'); // a's handler failed late
    expect(await plain.get(`${DEFAULT_KEY_PREFIX}id:m4`)).toMatch(/^in-flight:/);
    expect(await a.claim('id:m4', 60_000)).toBe('in-flight');
  });

  it('a claim expires after inFlightTtlMs, then anyone claims it', async () => {
    const a = newStore();
    const b = newStore();
    await Promise.all([a.ready(), b.ready()]);
    expect(await a.claim('id:m5', 200)).toBe('claimed');
    expect(await b.claim('id:m5', 200)).toBe('in-flight');
    await sleep(300);
    expect(await b.claim('id:m5', 200)).toBe('claimed');
  });

  it('a done key expires after ttlMs', async () => {
    const a = newStore();
    await a.ready();
    expect(await a.claim('id:m6', 60_000)).toBe('claimed');
    await a.complete('id:m6', 150);
    expect(await a.claim('id:m6', 60_000)).toBe('done');
    await sleep(250);
    expect(await a.claim('id:m6', 60_000)).toBe('claimed');
  });

  it('release without a claim of this store does nothing', async () => {
    const a = newStore();
    const b = newStore();
    await Promise.all([a.ready(), b.ready()]);
    expect(await a.claim('id:m7', 60_000)).toBe('claimed');
    await b.release('id:m7');
    expect(await plain.get(`${DEFAULT_KEY_PREFIX}id:m7`)).toMatch(/^in-flight:/);
  });

  it('uses the key prefix', async () => {
    const a = newStore({ keyPrefix: 'shop-a:' });
    const b = newStore({ keyPrefix: 'shop-b:' });
    await Promise.all([a.ready(), b.ready()]);
    expect(await a.claim('id:m8', 60_000)).toBe('claimed');
    expect(await b.claim('id:m8', 60_000)).toBe('claimed');
    expect(await plain.exists('shop-a:id:m8', 'shop-b:id:m8')).toBe(2);
  });

  it('treats a value it did not write as in flight (never runs a message on a guess)', async () => {
    const a = newStore();
    await a.ready();
    await plain.set(`${DEFAULT_KEY_PREFIX}id:m9`, 'something-else', 'PX', 60_000);
    expect(await a.claim('id:m9', 60_000)).toBe('in-flight');
  });

  it('rejects a bad TTL, naming the option', async () => {
    const a = newStore();
    await a.ready();
    await expect(a.claim('id:m10', 0)).rejects.toThrow(/dedupe\.inFlightTtlMs must be a positive number/);
    await expect(a.complete('id:m10', Number.NaN)).rejects.toThrow(/dedupe\.ttlMs must be a positive number/);
  });
});

describe('atomic claim across instances', () => {
  it('of 200 keys each claimed by two stores at once, each is claimed exactly once', async () => {
    const a = newStore();
    const b = newStore();
    await Promise.all([a.ready(), b.ready()]);
    const keys = Array.from({ length: 200 }, (_, i) => `id:race-${i}`);
    const results = await Promise.all(keys.map((k) => Promise.all([a.claim(k, 60_000), b.claim(k, 60_000)])));
    for (const pair of results) {
      expect(pair.filter((r) => r === 'claimed')).toHaveLength(1);
      expect(pair.filter((r) => r === 'in-flight')).toHaveLength(1);
    }
  });

  it('claims in one round trip (one EVALSHA, nothing else from the client) once the script is cached', async () => {
    const a = newStore();
    await a.ready();
    await a.claim('id:warm', 60_000); // caches the script (EVAL on NOSCRIPT the very first time)
    const monitor = await plain.monitor(); // a new connection in monitor mode
    const seen: Array<{ args: string[]; source: string }> = [];
    monitor.on('monitor', (_time: string, args: string[], source: string) => seen.push({ args, source }));
    await sleep(50);
    for (let i = 0; i < 10; i++) await a.claim(`id:trip-${i}`, 60_000);
    await sleep(100);
    monitor.disconnect();
    const fromClient = seen.filter((c) => c.source !== 'lua');
    expect(fromClient.map((c) => c.args[0]?.toLowerCase())).toEqual(Array(10).fill('evalsha'));
    expect(fromClient.map((c) => c.args[3])).toEqual(
      Array.from({ length: 10 }, (_, i) => `${DEFAULT_KEY_PREFIX}id:trip-${i}`),
    );
    // Inside the script: one SET NX per fresh key, run by Redis itself.
    expect(seen.filter((c) => c.source === 'lua').map((c) => c.args[0]?.toLowerCase())).toEqual(Array(10).fill('set'));
  });

  it('reloads the script after SCRIPT FLUSH (NOSCRIPT → EVAL)', async () => {
    const a = newStore();
    await a.ready();
    await a.claim('id:flush-1', 60_000);
    await plain.script('FLUSH');
    expect(await plain.script('EXISTS', CLAIM_SCRIPT.sha)).toEqual([0]);
    expect(await a.claim('id:flush-2', 60_000)).toBe('claimed');
    expect(await plain.script('EXISTS', CLAIM_SCRIPT.sha)).toEqual([1]);
  });
});

describe('client ownership', () => {
  it('uses a client you pass and leaves it open on close', async () => {
    const client = new Redis(redis.url, { ...RECOMMENDED_REDIS_OPTIONS });
    try {
      const store = new RedisIdempotencyStore({ client, keyPrefix: 'own:' });
      await store.ready();
      expect(store.ownsClient).toBe(false);
      expect(await store.claim('id:c1', 60_000)).toBe('claimed');
      await store.close();
      expect(client.status).toBe('ready');
      expect(await client.get('own:id:c1')).toMatch(/^in-flight:/);
    } finally {
      client.disconnect();
    }
  });

  it('closes the client it created', async () => {
    const store = new RedisIdempotencyStore({ connection: redis.url, logger: { warn: () => undefined } });
    await store.ready();
    expect(store.ownsClient).toBe(true);
    await store.close();
    expect(store.client.status).toBe('end');
    await expect(store.ready()).rejects.toThrow(/closed/);
  });

  it('closes quietly when the client reports an error while closing (a failed ready check after a restart)', async () => {
    // ioredis emits 'error' when the ready check of a reconnect fails ("Stream isn't writeable…"); close()
    // then waits for 'end' only: that error neither rejects close() nor goes unhandled.
    const store = new RedisIdempotencyStore({ connection: redis.url, logger: { warn: () => undefined } });
    await store.ready();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const closing = store.close();
      store.client.emit('error', new Error("Stream isn't writeable and enableOfflineQueue options is false"));
      await expect(closing).resolves.toBeUndefined();
      await sleep(50);
      expect(unhandled).toEqual([]);
      expect(store.client.status).toBe('end');
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('connects a lazyConnect client in ready()', async () => {
    const client = new Redis(redis.url, { ...RECOMMENDED_REDIS_OPTIONS, lazyConnect: true });
    try {
      const store = new RedisIdempotencyStore({ client });
      expect(client.status).toBe('wait');
      await store.ready();
      expect(client.status).toBe('ready');
    } finally {
      client.disconnect();
    }
  });

  it('ready() rejects after its timeout with the connection error when nothing listens', async () => {
    const store = new RedisIdempotencyStore({ connection: 'redis://127.0.0.1:1', logger: { warn: () => undefined } });
    stores.push(store);
    await expect(store.ready(300)).rejects.toThrow(/did not become ready within 300 ms .*ECONNREFUSED/);
  });
});

describe('options', () => {
  it('names the missing or doubled connection option', () => {
    expect(() => new RedisIdempotencyStore({})).toThrow(/needs client .* or connection/);
    expect(
      () => new RedisIdempotencyStore({ client: new Redis({ lazyConnect: true }), connection: redis.url }),
    ).toThrow(/either client or connection, not both/);
    expect(() => new RedisIdempotencyStore({ client: {} as never })).toThrow(/client must be an ioredis client/);
    expect(() => new RedisIdempotencyStore({ connection: 'localhost:6379' })).toThrow(/redis:\/\/ or rediss:\/\/ URL/);
  });

  it('names a bad commandTimeoutMs or keyPrefix', () => {
    expect(() => new RedisIdempotencyStore({ connection: redis.url, commandTimeoutMs: 5000 })).toThrow(
      /commandTimeoutMs must be a whole number of milliseconds from 1 to 4999/,
    );
    expect(() => new RedisIdempotencyStore({ connection: redis.url, commandTimeoutMs: 0 })).toThrow(/commandTimeoutMs/);
    expect(() => new RedisIdempotencyStore({ connection: redis.url, keyPrefix: 5 as never })).toThrow(
      /keyPrefix must be a string/,
    );
  });
});

describe('when Redis is away', () => {
  it('a stopped Redis: claim rejects at once with a disconnected RedisStoreError; works again after the restart', async () => {
    const warnings: string[] = [];
    const a = newStore({ commandTimeoutMs: 4999, logger: { warn: (l: string) => warnings.push(l) } });
    await a.ready();
    await redis.kill();
    try {
      const started = Date.now();
      const error = await a.claim('id:down-1', 60_000).then(
        () => undefined,
        (e: unknown) => e,
      );
      // Fails fast, not at the 5 s timeout (the reason says so too); 2.5 s are left for a busy machine.
      expect(Date.now() - started).toBeLessThan(2500);
      expect(error).toBeInstanceOf(RedisStoreError);
      expect((error as RedisStoreError).reason).toBe('disconnected');
      expect((error as RedisStoreError).operation).toBe('claim');
      expect((error as Error).message).toMatch(
        /dedupe claim of "id:down-1".*answers 503 and the sender retries.*Check that Redis is running/,
      );
    } finally {
      await redis.restart();
    }
    await a.ready(5000);
    expect(await a.claim('id:down-1', 60_000)).toBe('claimed');
    expect(warnings.some((w) => /Redis is unreachable/.test(w))).toBe(true);
    expect(warnings.some((w) => /reachable again/.test(w))).toBe(true);
    expect(warnings.join('\n')).not.toMatch(/password/i);
  });

  it('a frozen Redis: claim rejects with a timeout after commandTimeoutMs, and its late claim is taken back', async () => {
    const a = newStore({ commandTimeoutMs: 200 });
    await a.ready();
    const key = 'id:frozen-1';
    redis.pause();
    let error: unknown;
    const started = Date.now();
    try {
      error = await a.claim(key, 60_000).then(
        () => undefined,
        (e: unknown) => e,
      );
    } finally {
      redis.resume();
    }
    // At the 200 ms timeout, well inside the sender's 5 s (the rest is margin for a busy machine).
    expect(Date.now() - started).toBeLessThan(5000);
    expect(error).toBeInstanceOf(RedisStoreError);
    expect((error as RedisStoreError).reason).toBe('timeout');
    // The claim reached Redis once it thawed; the store's release behind it took it back, so the
    // sender's retry is not kept waiting for the 60 s in-flight TTL.
    await sleep(100);
    expect(await plain.exists(`${DEFAULT_KEY_PREFIX}${key}`)).toBe(0);
    expect(await a.claim(key, 60_000)).toBe('claimed');
  });
});
