// The store on an ioredis Cluster client: a one-node Redis Cluster holding every slot (real cluster mode,
// MOVED-aware client, EVALSHA routed by key slot).
import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRedisServer, type RunningRedis } from '../../../test/helpers/redis-server.js';
import { RECOMMENDED_REDIS_OPTIONS, RedisIdempotencyStore } from '../src/index.js';
import { sleep } from './support/instances.js';

let redis: RunningRedis;
let cluster: Cluster;

beforeAll(async () => {
  redis = await startRedisServer({
    args: ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-announce-ip', '127.0.0.1'],
  });
  const admin = new Redis(redis.url);
  await admin.call('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
  for (let i = 0; i < 100 && !/cluster_state:ok/.test(String(await admin.call('CLUSTER', 'INFO'))); i++)
    await sleep(50);
  admin.disconnect();
  cluster = new Cluster([{ host: redis.host, port: redis.port }], { redisOptions: { ...RECOMMENDED_REDIS_OPTIONS } });
});

afterAll(async () => {
  cluster?.disconnect();
  await redis?.stop();
});

it('claims, completes and releases through a Cluster client', async () => {
  const a = new RedisIdempotencyStore({ client: cluster, keyPrefix: 'cluster:dedupe:' });
  const b = new RedisIdempotencyStore({ client: cluster, keyPrefix: 'cluster:dedupe:' });
  await a.ready();
  expect(cluster.status).toBe('ready');
  expect(await a.claim('id:c1', 60_000)).toBe('claimed');
  expect(await b.claim('id:c1', 60_000)).toBe('in-flight');
  await a.release('id:c1');
  expect(await b.claim('id:c1', 60_000)).toBe('claimed');
  await b.complete('id:c1', 60_000);
  expect(await a.claim('id:c1', 60_000)).toBe('done');
  expect(await cluster.get('cluster:dedupe:id:c1')).toBe('done');
});
