import { createHash } from 'node:crypto';
import type { RedisClient } from './redis-client.js';

/**
 * A Lua script run with `EVALSHA` (one round trip once Redis has cached it), falling back to `EVAL`
 * when Redis answers `NOSCRIPT` (first use, or after a restart or `SCRIPT FLUSH`). Works on a single
 * Redis and on a Cluster (each node caches the script on first use). It never adds commands to the
 * client, so a client the application shares stays as it was.
 *
 * @example
 * const getOrNil = new LuaScript("return redis.call('GET', KEYS[1])");
 * const value = await getOrNil.run(client, ['some-key'], []);
 */
export class LuaScript {
  /** The SHA-1 of the source, as Redis names cached scripts. */
  readonly sha: string;

  constructor(readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  /** Runs the script with its keys and arguments. */
  async run(client: RedisClient, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    try {
      return await client.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!isNoScript(error)) throw error;
      return client.eval(this.source, keys.length, ...keys, ...args);
    }
  }

  /**
   * Runs the script with `EVAL`, sending its source: one command whose outcome does not depend on
   * Redis's script cache. For commands that must run in order behind others even when a `NOSCRIPT`
   * answer would come too late to be acted on (a client that gave up waiting, a frozen Redis).
   */
  evalSource(client: RedisClient, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    return client.eval(this.source, keys.length, ...keys, ...args);
  }
}

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}
