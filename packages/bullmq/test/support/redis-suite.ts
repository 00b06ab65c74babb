// One redis-server per test file: started before its tests; after them, everything pushed to
// `closers` is closed (last first), then the sender's keep-alive agent, then Redis.
import { afterAll, beforeAll } from 'vitest';
import { startRedisServer, type RunningRedis } from '../../../../test/helpers/redis-server.js';
import { closeAgent } from './processes.js';

/** The running Redis (set once the file's `beforeAll` ran) and what to close after the tests. */
export interface RedisSuite {
  readonly redis: RunningRedis;
  readonly closers: Array<() => Promise<unknown>>;
}

/**
 * Registers the file's `beforeAll`/`afterAll` for one redis-server; call it once at the top of a test file.
 *
 * @example
 * const suite = redisSuite();
 * it('…', async () => { const queue = new Queue('q', { connection: { host: '127.0.0.1', port: suite.redis.port } }); suite.closers.push(() => queue.close()); });
 */
export function redisSuite(): RedisSuite {
  let redis: RunningRedis | undefined;
  const closers: Array<() => Promise<unknown>> = [];
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    closeAgent();
    await redis?.stop();
  });
  return {
    get redis() {
      if (redis === undefined) throw new Error('redisSuite: Redis is not started yet (use it inside a test or a hook)');
      return redis;
    },
    closers,
  };
}
