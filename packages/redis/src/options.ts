import type { ReceiverLogger } from '@hookgate/core';
import type { RedisOptions } from 'ioredis';
import type { RedisClient } from './redis-client.js';

/**
 * The default key prefix: keys look like `hookgate:dedupe:id:<messageId>`.
 *
 * @example
 * await redis.keys(`${DEFAULT_KEY_PREFIX}*`); // every dedupe key
 */
export const DEFAULT_KEY_PREFIX = 'hookgate:dedupe:';
/**
 * The default time (ms) the store waits for Redis on each operation before it fails it.
 *
 * @example
 * new RedisIdempotencyStore({ connection, commandTimeoutMs: DEFAULT_COMMAND_TIMEOUT_MS / 2 });
 */
export const DEFAULT_COMMAND_TIMEOUT_MS = 1000;

/**
 * Options of `RedisIdempotencyStore`: give `client` or `connection`, not both.
 *
 * @example
 * const options: RedisIdempotencyStoreOptions = { connection: 'redis://127.0.0.1:6379', keyPrefix: 'shop:dedupe:' };
 */
export interface RedisIdempotencyStoreOptions {
  /**
   * An ioredis client you made (`new Redis(…)`, `new Cluster(…)`). The store uses it as it is and never
   * closes it. Give it `RECOMMENDED_REDIS_OPTIONS` so that a claim fails fast while Redis is away.
   */
  client?: RedisClient;
  /**
   * Or where to connect: a `redis://` / `rediss://` URL, or ioredis options. The store creates the client
   * with `RECOMMENDED_REDIS_OPTIONS` under yours and closes it in `close()`.
   */
  connection?: string | RedisOptions;
  /** Prepended to every dedupe key. Default `hookgate:dedupe:`. Use one per receiver that must not share keys. */
  keyPrefix?: string;
  /**
   * Milliseconds the store waits for Redis on each claim, complete or release before failing it (a
   * claim failure answers 503). Default 1000; 1 to 4999, and best well below the receiver's `deadlineMs`.
   * Applies whatever the client's own options are.
   */
  commandTimeoutMs?: number;
  /**
   * Where a store-created client reports that Redis went away and came back (once per outage, never
   * with a password). Default `console.warn`. Not used with `client`: your client, your listeners.
   */
  logger?: Pick<ReceiverLogger, 'warn'>;
}

/** The checked options. */
export interface ResolvedStoreOptions {
  keyPrefix: string;
  commandTimeoutMs: number;
  logger: Pick<ReceiverLogger, 'warn'>;
}

/**
 * Checks the options and names the bad one with its fix.
 *
 * @example
 * resolveStoreOptions({ connection: 'redis://127.0.0.1:6379' }).keyPrefix; // 'hookgate:dedupe:'
 */
export function resolveStoreOptions(options: RedisIdempotencyStoreOptions): ResolvedStoreOptions {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(
      'RedisIdempotencyStore needs options: { client } (an ioredis client) or { connection } (a redis:// URL or ioredis options).',
    );
  }
  const hasClient = options.client !== undefined;
  const hasConnection = options.connection !== undefined;
  if (hasClient === hasConnection) {
    throw new TypeError(
      hasClient
        ? 'Give either client or connection, not both: client is a client you made and keep; connection makes one the store owns.'
        : 'RedisIdempotencyStore needs client (an ioredis Redis or Cluster you made) or connection (a redis:// URL or ioredis options), e.g. { connection: process.env.REDIS_URL }.',
    );
  }
  if (hasClient) {
    const c = options.client as unknown as Record<string, unknown> | null;
    if (
      c === null ||
      typeof c !== 'object' ||
      typeof c.evalsha !== 'function' ||
      typeof c.eval !== 'function' ||
      typeof c.set !== 'function'
    ) {
      throw new TypeError(
        'client must be an ioredis client (new Redis(…) or new Cluster(…) from the ioredis package, version 5).',
      );
    }
  }
  const keyPrefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  if (typeof keyPrefix !== 'string') {
    throw new TypeError(`keyPrefix must be a string such as "hookgate:dedupe:"; got ${typeof keyPrefix}.`);
  }
  const commandTimeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  if (!Number.isInteger(commandTimeoutMs) || commandTimeoutMs < 1 || commandTimeoutMs >= 5000) {
    throw new RangeError(
      `commandTimeoutMs must be a whole number of milliseconds from 1 to 4999 (the sender gives up at 5000 ms, and the claim runs before the handler); got ${options.commandTimeoutMs}.`,
    );
  }
  const logger = options.logger ?? { warn: (line: string) => console.warn(line) };
  if (typeof logger.warn !== 'function') throw new TypeError('logger must have a warn(line) method.');
  return { keyPrefix, commandTimeoutMs, logger };
}
