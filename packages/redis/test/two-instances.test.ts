// Two receivers (two real HTTP servers, each with its own Redis connection) share one real redis-server,
// as instances behind a load balancer do.
import { extraFields } from '@hookgate/core';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RunningRedis } from '../../../test/helpers/redis-server.js';
import { DEFAULT_KEY_PREFIX, RedisStoreError } from '../src/index.js';
import { deliver, inspect, sleep, startInstance, trackMessage, type Instance } from './support/instances.js';

let redis: RunningRedis;
let plain: Redis;
const running: Instance[] = [];

async function pair(options: Partial<Parameters<typeof startInstance>[0]> = {}): Promise<[Instance, Instance]> {
  const a = await startInstance({ name: 'a', redisUrl: redis.url, ...options });
  const b = await startInstance({ name: 'b', redisUrl: redis.url, ...options });
  running.push(a, b);
  return [a, b];
}

beforeAll(async () => {
  redis = await startRedisServer();
  plain = new Redis(redis.url);
  plain.on('error', () => undefined); // it reconnects while a test stops Redis
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((i) => i.close()));
});

afterAll(async () => {
  plain?.disconnect();
  await redis?.stop();
});

describe('the same message sent to both instances at once', () => {
  it('runs the handler once: one instance answers 200, the other 503 in_flight; the retry is a 200 duplicate', async () => {
    // The handler holds until the losing instance has answered, so the two deliveries surely overlap.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const [a, b] = await pair({ onTrack: () => gate });
    const message = trackMessage();
    const pending = [deliver(a.url, message), deliver(b.url, message)] as const;
    const first = await Promise.race(pending);
    expect(first.code).toBe('in_flight');
    open();
    const [ra, rb] = await Promise.all(pending);

    expect([ra.status, rb.status].sort()).toEqual([200, 503]);
    const [won, lost] = ra.status === 200 ? [ra, rb] : [rb, ra];
    expect(won.code).toBe('ok');
    expect(lost.code).toBe('in_flight');
    expect([...a.handled, ...b.handled]).toEqual([message.messageId]);

    // The sender retries the 503, possibly to either instance: both say it is done.
    const retries = await Promise.all([deliver(a.url, message), deliver(b.url, message)]);
    for (const retry of retries) {
      expect(retry.status).toBe(200);
      expect(retry.code).toBe('duplicate');
    }
    expect(a.handled.length + b.handled.length).toBe(1);
    const stored = await inspect(plain, `${DEFAULT_KEY_PREFIX}id:${message.messageId}`);
    expect(stored.value).toBe('done');
  });

  it('over 100 messages each sent to both at once, every handler ran exactly once and nothing was lost', async () => {
    const [a, b] = await pair();
    const messages = Array.from({ length: 100 }, () => trackMessage());
    const answers = await Promise.all(messages.map((m) => Promise.all([deliver(a.url, m), deliver(b.url, m)])));
    const handled = [...a.handled, ...b.handled].sort();
    expect(handled).toEqual(messages.map((m) => String(m.messageId)).sort());
    for (const pairOfAnswers of answers) {
      const codes = pairOfAnswers.map((r) => r.code).sort();
      // Either the second arrived while the first ran (503, the sender retries) or after it (duplicate).
      expect([
        ['in_flight', 'ok'],
        ['duplicate', 'ok'],
      ]).toContainEqual(codes);
    }
  });

  it('dedupes a message without messageId by the hash of its bytes', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const [a, b] = await pair({ onTrack: () => gate });
    const body = JSON.stringify({ ...trackMessage(), messageId: undefined, event: `Hashed ${Math.random()}` });
    const pending = [deliver(a.url, body), deliver(b.url, body)] as const;
    expect((await Promise.race(pending)).code).toBe('in_flight');
    open();
    const [ra, rb] = await Promise.all(pending);
    expect([ra.code, rb.code].sort()).toEqual(['in_flight', 'ok']);
    expect(a.handled.length + b.handled.length).toBe(1);
    expect(await plain.keys(`${DEFAULT_KEY_PREFIX}sha256:*`)).toHaveLength(1);
  });
});

describe('a failing handler', () => {
  it('releases the claim, so the retry (to the other instance) runs the handler', async () => {
    let failures = 1;
    const [a, b] = await pair({
      onTrack: (message) => {
        if (failures-- > 0) throw new Error(`downstream unavailable for ${String(extraFields(message).messageId)}`);
      },
    });
    const message = trackMessage();
    const first = await deliver(a.url, message);
    expect(first.status).toBe(500);
    expect(first.code).toBe('handler_error');
    expect(a.handled).toEqual([]);
    // Released: the key is gone, not left in flight for 60 s.
    expect(await plain.exists(`${DEFAULT_KEY_PREFIX}id:${message.messageId}`)).toBe(0);

    const retry = await deliver(b.url, message);
    expect(retry.status).toBe(200);
    expect(retry.code).toBe('ok');
    expect(b.handled).toEqual([message.messageId]);
    expect(await plain.get(`${DEFAULT_KEY_PREFIX}id:${message.messageId}`)).toBe('done');
    expect((await deliver(a.url, message)).code).toBe('duplicate');
  });
});

describe('Redis stopped mid-run', () => {
  it('answers 503 store_unavailable (never 200 with the message lost); after the restart the retry is handled once', async () => {
    const [a, b] = await pair({ commandTimeoutMs: 1000 });
    const before = trackMessage();
    expect((await deliver(a.url, before)).code).toBe('ok');

    await redis.kill();
    const message = trackMessage();
    try {
      const started = Date.now();
      const answers = await Promise.all([deliver(a.url, message), deliver(b.url, message)]);
      expect(Date.now() - started).toBeLessThan(2000); // quickly, well inside the sender's 5 s
      for (const answer of answers) {
        expect(answer.status).toBe(503);
        expect(answer.code).toBe('store_unavailable');
      }
      expect([...a.handled, ...b.handled]).toEqual([before.messageId]); // not run without a claim
      const storeErrors = [...a.errors, ...b.errors].filter((e) => e.info.phase === 'store');
      expect(storeErrors.length).toBe(2);
      expect(storeErrors.every((e) => e.error instanceof RedisStoreError && e.error.reason === 'disconnected')).toBe(
        true,
      );
    } finally {
      await redis.restart();
    }
    await Promise.all([a.store.ready(5000), b.store.ready(5000)]);
    const retry = await deliver(b.url, message);
    expect(retry.code).toBe('ok');
    expect((await deliver(a.url, message)).code).toBe('duplicate');
    expect([...a.handled, ...b.handled].filter((id) => id === message.messageId)).toHaveLength(1);
  });

  it('a frozen Redis answers 503 after commandTimeoutMs, not at the sender timeout', async () => {
    // The deadline as long as the sender allows, so only the 300 ms command timeout can answer in time.
    const [a] = await pair({ commandTimeoutMs: 300, deadlineMs: 4999 });
    const message = trackMessage();
    redis.pause();
    let answer;
    const started = Date.now();
    try {
      answer = await deliver(a.url, message);
    } finally {
      redis.resume();
    }
    expect(Date.now() - started).toBeLessThan(4999);
    expect(answer.status).toBe(503);
    expect(answer.code).toBe('store_unavailable');
    expect(a.handled).toEqual([]);
    await sleep(100);
    const retry = await deliver(a.url, message);
    expect(retry.code).toBe('ok'); // the late claim was taken back: no 60 s wait
    expect(a.handled).toEqual([message.messageId]);
  });

  it('Redis lost while a handler runs: the handler finished, so 200; the failed complete is reported to onError', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const [a] = await pair({
      onTrack: async () => {
        started();
        await gate;
      },
      // The handler is held until Redis has exited, which can take a second or two on a busy machine; the
      // deadline is not what this test is about, so it is the longest the sender allows (5 s), not 2 s.
      deadlineMs: 4999,
    });
    const message = trackMessage();
    const answer = deliver(a.url, message);
    await running;
    await redis.kill();
    try {
      release();
      const result = await answer;
      expect(result.status).toBe(200);
      expect(result.code).toBe('ok');
      expect(a.handled).toEqual([message.messageId]);
      const failed = a.errors.filter((e) => e.info.phase === 'store');
      expect(failed).toHaveLength(1);
      expect((failed[0]!.error as RedisStoreError).operation).toBe('complete');
    } finally {
      await redis.restart();
    }
  });
});
