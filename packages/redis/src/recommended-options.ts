import { Redis, type RedisOptions } from 'ioredis';

/**
 * The ioredis options the store uses for a client it creates, and recommends for a client you make:
 * fail fast instead of queueing while Redis is away, so a claim rejects at once (the receiver answers
 * 503 and the sender retries) rather than hanging until the sender's 5 s timeout.
 *
 * - `enableOfflineQueue: false`: while disconnected, a command fails at once instead of waiting.
 * - `autoResendUnfulfilledCommands: false`: a command cut off by a lost connection fails instead of
 *   being resent after the reconnect, long after the receiver answered.
 * - `maxRetriesPerRequest: 1`: a command waits for at most one reconnect attempt.
 * - `commandTimeout: 1000`: a hung or overloaded Redis rejects the command after 1 s.
 * - `connectTimeout: 2000`: a connection attempt to an unreachable host gives up after 2 s (then
 *   ioredis retries in the background).
 *
 * @example
 * import { Redis } from 'ioredis';
 * const client = new Redis(process.env.REDIS_URL!, { ...RECOMMENDED_REDIS_OPTIONS, connectionName: 'webhooks' });
 */
export const RECOMMENDED_REDIS_OPTIONS = Object.freeze({
  enableOfflineQueue: false,
  autoResendUnfulfilledCommands: false,
  maxRetriesPerRequest: 1,
  commandTimeout: 1000,
  connectTimeout: 2000,
} as const satisfies RedisOptions);

/**
 * Creates an ioredis client with `RECOMMENDED_REDIS_OPTIONS` under yours (yours win), from a
 * `redis://` / `rediss://` URL or from ioredis options.
 *
 * @example
 * const client = createRedisClient('redis://127.0.0.1:6379', { connectionName: 'webhooks' });
 */
export function createRedisClient(connection: string | RedisOptions, overrides: RedisOptions = {}): Redis {
  if (typeof connection === 'string') {
    if (!/^rediss?:\/\//i.test(connection)) {
      throw new TypeError(
        `connection must be a redis:// or rediss:// URL (e.g. redis://127.0.0.1:6379) or ioredis options; got a string that starts with ${JSON.stringify(connection.slice(0, 8))}.`,
      );
    }
    return new Redis(connection, { ...RECOMMENDED_REDIS_OPTIONS, ...overrides });
  }
  if (connection === null || typeof connection !== 'object') {
    throw new TypeError(
      `connection must be a redis:// URL or an ioredis options object; got ${connection === null ? 'null' : typeof connection}.`,
    );
  }
  return new Redis({ ...RECOMMENDED_REDIS_OPTIONS, ...connection, ...overrides });
}
