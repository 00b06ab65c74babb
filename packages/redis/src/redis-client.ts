import type { Cluster, Redis } from 'ioredis';

/**
 * The clients the store accepts: an ioredis `Redis` (single, Sentinel) or `Cluster`.
 *
 * @example
 * const client: RedisClient = new Redis(process.env.REDIS_URL!, RECOMMENDED_REDIS_OPTIONS);
 */
export type RedisClient = Redis | Cluster;
