/**
 * Why a store operation failed: Redis did not answer in time, was not connected, or answered an error.
 *
 * @example
 * if (error instanceof RedisStoreError && error.reason === 'disconnected') alertOps();
 */
export type RedisStoreErrorReason = 'timeout' | 'disconnected' | 'redis-error';

/**
 * A store operation on Redis: what the receiver was doing when Redis failed.
 *
 * @example
 * if (error instanceof RedisStoreError && error.operation === 'claim') console.warn('answered 503');
 */
export type RedisStoreOperation = 'claim' | 'complete' | 'release';

/**
 * Thrown by the store when Redis cannot serve a claim, complete or release. The receiver answers 503
 * (`store_unavailable`) when a claim throws it, so the sender retries the message later: nothing is lost.
 * The message names the dedupe key (a `messageId` or a body hash, never a secret) and the fix.
 *
 * @example
 * try { await store.claim('id:m1', 60_000); }
 * catch (e) { if (e instanceof RedisStoreError && e.reason === 'timeout') metrics.increment('redis.timeout'); }
 */
export class RedisStoreError extends Error {
  override readonly name = 'RedisStoreError';

  constructor(
    readonly operation: RedisStoreOperation,
    readonly key: string,
    readonly reason: RedisStoreErrorReason,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${describe(operation, key, reason, detail)}`, options);
  }
}

function describe(operation: RedisStoreOperation, key: string, reason: RedisStoreErrorReason, detail: string): string {
  const what = `dedupe ${operation} of "${key}"`;
  const consequence =
    operation === 'claim'
      ? 'the receiver answers 503 and the sender retries'
      : operation === 'complete'
        ? 'the message was handled, but a retry of it within the in-flight TTL answers 503 until the claim expires'
        : "the claim stays until its in-flight TTL expires, then the sender's retry runs the handler";
  switch (reason) {
    case 'timeout':
      return `Redis did not answer the ${what} within ${detail} ms (commandTimeoutMs); ${consequence}. Check Redis' latency and load, or raise commandTimeoutMs (keep it well below the receiver's deadlineMs).`;
    case 'disconnected':
      return `Redis is not connected for the ${what} (${detail}); ${consequence}. Check that Redis is running and reachable: the client reconnects by itself. At startup, await store.ready() before serving.`;
    case 'redis-error':
      return `Redis refused the ${what}: ${detail}; ${consequence}. Check the Redis user's permissions (EVALSHA, EVAL, SET, GET, DEL) and its memory policy.`;
  }
}
