// The store on ioredis 6 (what a plain `npm install ioredis` gets now; the peer range takes ^5 and ^6),
// against a real redis-server: claim, complete and release through a real receiver's dedupe, a second
// store seeing the first's claims, and close leaving the client it was given open.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Redis } from 'ioredis-6';
import { createReceiver, fixture, sign, type ReceiverResponse } from '@hookgate/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRedisServer, type RunningRedis } from '../../../test/helpers/redis-server.js';
import { DEFAULT_KEY_PREFIX, RedisIdempotencyStore, type RedisClient } from '../src/index.js';

const SECRET = 'whsec_ioredis6_SECRET_2f8a';
let redis: RunningRedis;
let client: Redis;

beforeAll(async () => {
  redis = await startRedisServer();
  client = new Redis(redis.url);
});

afterAll(async () => {
  client?.disconnect();
  await redis?.stop();
});

it('dedupes a receiver’s deliveries on an ioredis 6 client', async () => {
  // ioredis 6's types are its own: the store's are ioredis 5's (the workspace's dev copy).
  const store = new RedisIdempotencyStore({ client: client as unknown as RedisClient });
  await store.ready();
  let runs = 0;
  let fail = true;
  const receiver = createReceiver({
    secret: SECRET,
    logger: false,
    onError: () => undefined,
    dedupe: { store },
    onMessage() {
      runs++;
      if (fail) throw new Error('the first run fails');
    },
  });
  const body = JSON.stringify(fixture('track', { messageId: 'm-ioredis6' } as never));
  const deliver = (): Promise<ReceiverResponse> =>
    receiver.handle({
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': sign(body, SECRET) },
      rawBody: body,
    });

  expect((await deliver()).code).toBe('handler_error'); // claimed, then released
  expect(await client.exists(`${DEFAULT_KEY_PREFIX}id:m-ioredis6`)).toBe(0);
  fail = false;
  expect((await deliver()).code).toBe('ok'); // claimed again, completed
  expect(await client.get(`${DEFAULT_KEY_PREFIX}id:m-ioredis6`)).toBe('done');
  expect((await deliver()).code).toBe('duplicate');
  expect(runs).toBe(2);

  const other = new RedisIdempotencyStore({ client: client as unknown as RedisClient });
  expect(await other.claim('id:m-ioredis6', 60_000)).toBe('done');
  expect(await other.claim('id:m-other', 60_000)).toBe('claimed');
  expect(await store.claim('id:m-other', 60_000)).toBe('in-flight');
  await other.release('id:m-other');
  expect(await store.claim('id:m-other', 60_000)).toBe('claimed');

  await store.close();
  await other.close();
  expect(client.status).toBe('ready'); // given, not owned: left open
});

it('takes ioredis 6 as its peer, beside 5', () => {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    peerDependencies: Record<string, string>;
  };
  const majors = manifest.peerDependencies
    .ioredis!.split('||')
    .map((range) => range.trim().replace(/^\^(\d+)\..*$/, '$1'));
  expect(majors).toEqual(['5', '6']);
  const installed = createRequire(import.meta.url)('ioredis-6/package.json') as { version: string };
  expect(installed.version.split('.')[0]).toBe('6');
});
