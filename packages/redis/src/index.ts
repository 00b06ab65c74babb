/**
 * A shared dedupe store on Redis, so receivers on several instances handle each webhook once.
 *
 * @packageDocumentation
 * @module @hookgate/redis
 */

export { RedisIdempotencyStore } from './redis-idempotency-store.js';
export { DEFAULT_COMMAND_TIMEOUT_MS, DEFAULT_KEY_PREFIX, type RedisIdempotencyStoreOptions } from './options.js';
export { RECOMMENDED_REDIS_OPTIONS, createRedisClient } from './recommended-options.js';
export { RedisStoreError, type RedisStoreErrorReason, type RedisStoreOperation } from './redis-store-error.js';
export type { RedisClient } from './redis-client.js';
export { CLAIM_SCRIPT, DONE_VALUE, IN_FLIGHT_PREFIX, RELEASE_SCRIPT } from './dedupe-scripts.js';
export { LuaScript } from './lua-script.js';
