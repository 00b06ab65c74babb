import { randomBytes } from 'node:crypto';
import type { ClaimResult, IdempotencyStore } from '@hookgate/core';
import { ClaimTokens } from './claim-tokens.js';
import { CLAIM_SCRIPT, DONE_VALUE, IN_FLIGHT_PREFIX, RELEASE_SCRIPT } from './dedupe-scripts.js';
import { LateClaims } from './late-claims.js';
import { resolveStoreOptions, type RedisIdempotencyStoreOptions, type ResolvedStoreOptions } from './options.js';
import { createRedisClient } from './recommended-options.js';
import type { RedisClient } from './redis-client.js';
import { RedisStoreError, type RedisStoreOperation } from './redis-store-error.js';

const CLAIM_RESULTS: ReadonlySet<unknown> = new Set<ClaimResult>(['claimed', 'in-flight', 'done']);
/** Pause between probes while claims that failed wait to be taken back. */
const LATE_CLAIM_RETRY_MS = 250;
const DISCONNECTED =
  /Stream isn't writeable|Connection is closed|max retries per request|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|ENOTFOUND|EHOSTUNREACH/i;

/**
 * A shared dedupe store on Redis, for receivers on several instances behind a load balancer: the
 * sender's retries resend the same bytes, and whichever instance gets them, the handler runs once.
 *
 * - `claim` is one atomic round trip (a Lua script: `SET key in-flight:<token> NX PX ttl`, else the
 *   current state), so two instances receiving the same message at once cannot both run it.
 * - `complete` marks the key `done` for the receiver's dedupe TTL (default 5 h).
 * - `release` deletes the key only while it still holds this store's own claim (compare-and-delete),
 *   so a late release never erases a `done` nor another instance's newer claim.
 * - An instance that dies mid-handler leaves its claim until `dedupe.inFlightTtlMs` (default 60 s)
 *   expires; the sender's next retry after that runs the handler.
 * - Every operation fails within `commandTimeoutMs` when Redis is away; a failed claim answers 503.
 *
 * @example
 * import { createReceiver, toNodeListener } from '@hookgate/core';
 * import { RedisIdempotencyStore } from '@hookgate/redis';
 * const store = new RedisIdempotencyStore({ connection: process.env.REDIS_URL! });
 * await store.ready();
 * const receiver = createReceiver({ secret, dedupe: { store, inFlightTtlMs: 30_000 }, on: { track: save } });
 * http.createServer(toNodeListener(receiver)).listen(3000);
 */
export class RedisIdempotencyStore implements IdempotencyStore {
  /** The ioredis client: yours (`client`) or the store's own (`connection`). */
  readonly client: RedisClient;
  /** Prepended to every key. */
  readonly keyPrefix: string;
  /** How long each operation may wait for Redis. */
  readonly commandTimeoutMs: number;
  /** Whether `close()` closes the client (true when the store created it from `connection`). */
  readonly ownsClient: boolean;

  private readonly tokens = new ClaimTokens();
  /** Claims that failed or timed out here but may still run on Redis: taken back once it answers. */
  private readonly late: LateClaims;
  private readonly claimPrefix = `${IN_FLIGHT_PREFIX}${randomBytes(6).toString('hex')}:`;
  private claimCount = 0;
  private closed = false;

  constructor(options: RedisIdempotencyStoreOptions) {
    const resolved = resolveStoreOptions(options);
    this.keyPrefix = resolved.keyPrefix;
    this.commandTimeoutMs = resolved.commandTimeoutMs;
    this.late = new LateClaims(
      (redisKey, value) =>
        this.run('release', redisKey, () => RELEASE_SCRIPT.evalSource(this.client, [redisKey], [value])),
      () => this.run('release', '(probe)', () => this.client.ping()),
      LATE_CLAIM_RETRY_MS,
    );
    if (options.client !== undefined) {
      this.client = options.client;
      this.ownsClient = false;
    } else {
      this.client = createRedisClient(options.connection as NonNullable<RedisIdempotencyStoreOptions['connection']>);
      this.ownsClient = true;
      this.reportOutages(resolved);
    }
  }

  /**
   * Atomically claims `key` for `inFlightTtlMs`: `claimed` (run the handler), `in-flight` (another
   * delivery holds it), or `done` (already handled). Rejects with `RedisStoreError` when Redis fails.
   */
  async claim(key: string, inFlightTtlMs: number): Promise<ClaimResult> {
    const ttl = checkTtl('inFlightTtlMs', inFlightTtlMs);
    const redisKey = this.keyPrefix + key;
    const value = this.claimPrefix + (++this.claimCount).toString(36);
    // Late claims of this key from an outage are released first, on the same connection, so they run
    // before this claim does (not awaited: their answers come in order with the claim's).
    if (this.late.has(redisKey)) void this.late.settle(redisKey).catch(() => undefined);
    let result: unknown;
    try {
      result = await this.run('claim', key, () => CLAIM_SCRIPT.run(this.client, [redisKey], [value, ttl]));
    } catch (error) {
      // The claim may still reach Redis (a slow or frozen server runs the commands queued in the
      // socket when it thaws): it is taken back behind it, and again once Redis answers, so the
      // sender's retry is not kept waiting for the in-flight TTL.
      this.late.add(redisKey, value, ttl);
      throw error;
    }
    if (!CLAIM_RESULTS.has(result)) {
      throw new RedisStoreError(
        'claim',
        key,
        'redis-error',
        `unexpected answer ${JSON.stringify(result)} from the claim script`,
      );
    }
    if (result === 'claimed') this.tokens.set(key, value, ttl);
    return result as ClaimResult;
  }

  /** Marks `key` handled for `ttlMs` (`SET key done PX ttl`), replacing the claim. */
  async complete(key: string, ttlMs: number): Promise<void> {
    const ttl = checkTtl('ttlMs', ttlMs);
    this.tokens.take(key);
    await this.run('complete', key, () => this.client.set(this.keyPrefix + key, DONE_VALUE, 'PX', ttl));
  }

  /**
   * Frees this store's own in-flight claim of `key` (the handler failed) so the sender's retry runs it.
   * Does nothing when the key is `done`, when its claim expired and another instance claimed it since,
   * or when this store holds no claim of it.
   */
  async release(key: string): Promise<void> {
    const value = this.tokens.take(key);
    if (value === undefined) return;
    await this.run('release', key, () => RELEASE_SCRIPT.run(this.client, [this.keyPrefix + key], [value]));
  }

  /**
   * Resolves once the client is connected (connecting a `lazyConnect` client); rejects after
   * `timeoutMs` with the last connection error. Await it before serving, so the first deliveries
   * are not answered 503.
   */
  async ready(timeoutMs = 10_000): Promise<void> {
    const client = this.client;
    if (client.status === 'ready') return;
    if (client.status === 'end' || this.closed) {
      throw new Error('The Redis client is closed; create a new RedisIdempotencyStore (or a new client).');
    }
    let lastError: Error | undefined;
    await new Promise<void>((resolve, reject) => {
      const onReady = () => finish();
      const onError = (error: Error) => (lastError = error);
      const finish = (error?: Error) => {
        clearTimeout(timer);
        client.off('ready', onReady);
        client.off('error', onError);
        if (error) reject(error);
        else resolve();
      };
      const timer = setTimeout(
        () =>
          finish(
            new Error(
              `Redis did not become ready within ${timeoutMs} ms (client status "${client.status}"${lastError ? `, last error: ${lastError.message}` : ''}). ` +
                'Check the host, port, password and TLS settings of the connection, and that Redis is running.',
            ),
          ),
        timeoutMs,
      );
      client.on('ready', onReady);
      client.on('error', onError);
      if (client.status === 'wait') client.connect().catch((error: Error) => (lastError = error));
    });
  }

  /**
   * Closes the client if the store created it (waiting for replies still due), and forgets its claims.
   * A client you passed stays open. On shutdown, `await receiver.drain()` first so that handlers still
   * running can record their outcome.
   */
  async close(): Promise<void> {
    this.tokens.clear();
    this.late.close();
    if (!this.ownsClient || this.closed) return;
    this.closed = true;
    // Waits for 'end' alone: events.once would also reject on an 'error' the client emits while closing
    // (a failed ready check of a reconnect), failing close() or leaving that rejection unhandled.
    const ended = new Promise<void>((resolve) => this.client.once('end', resolve));
    try {
      if (this.client.status !== 'ready') throw new Error('not connected');
      await this.client.quit();
    } catch {
      this.client.disconnect(); // not connected, or quit failed: drop the connection
    }
    // A client that was reconnecting has no socket left to close, and ioredis emits no 'end' for it.
    if (this.client.status === 'end' || this.client.status === 'reconnecting') return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([ended, new Promise((resolve) => (timer = setTimeout(resolve, 1000)))]);
    clearTimeout(timer);
  }

  /** Runs one Redis operation under the store's timeout, turning every failure into a `RedisStoreError`. */
  private async run<T>(operation: RedisStoreOperation, key: string, work: () => Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new RedisStoreError(operation, key, 'timeout', String(this.commandTimeoutMs))),
        this.commandTimeoutMs,
      );
    });
    try {
      return await Promise.race([work(), timeout]);
    } catch (error) {
      throw this.toStoreError(operation, key, error);
    } finally {
      clearTimeout(timer);
    }
  }

  private toStoreError(operation: RedisStoreOperation, key: string, error: unknown): RedisStoreError {
    if (error instanceof RedisStoreError) return error;
    const message = error instanceof Error ? error.message : String(error);
    if (/Command timed out/i.test(message)) {
      const ms = (this.client.options as { commandTimeout?: number } | undefined)?.commandTimeout;
      return new RedisStoreError(operation, key, 'timeout', String(ms ?? this.commandTimeoutMs), { cause: error });
    }
    if (this.client.status !== 'ready' || DISCONNECTED.test(message)) {
      return new RedisStoreError(operation, key, 'disconnected', `client status "${this.client.status}": ${message}`, {
        cause: error,
      });
    }
    return new RedisStoreError(operation, key, 'redis-error', message, { cause: error });
  }

  /** For a client the store owns: one warning when Redis goes away, one when it is back. */
  private reportOutages({ logger }: ResolvedStoreOptions): void {
    let down = false;
    let lastError: Error | undefined;
    const wentAway = () => {
      if (down || this.closed) return;
      down = true;
      logger.warn(
        `[hookgate/redis] Redis is unreachable (${lastError?.message ?? 'connection closed'}); dedupe claims fail and the receiver answers 503 (the sender retries) until it is back. The client keeps reconnecting.`,
      );
    };
    this.client.on('error', (error: Error) => {
      lastError = error;
      wentAway();
    });
    this.client.on('close', wentAway);
    this.client.on('ready', () => {
      lastError = undefined;
      if (!down) return;
      down = false;
      logger.warn('[hookgate/redis] Redis is reachable again; dedupe claims work.');
    });
  }
}

function checkTtl(name: 'inFlightTtlMs' | 'ttlMs', value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(
      `dedupe.${name} must be a positive number of milliseconds; got ${String(value)}. Fix it in createReceiver({ dedupe: { ${name} } }).`,
    );
  }
  return Math.ceil(value);
}
