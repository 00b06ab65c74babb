// Segment's limits and defaults for the Webhooks (Actions) destination's settings.

/**
 * Most subscriptions one Webhooks (Actions) destination may have (Segment's limit for this destination).
 *
 * @example
 * if (subscriptions.length > MAX_SUBSCRIPTIONS) throw new Error('too many subscriptions');
 */
export const MAX_SUBSCRIPTIONS = 5;

/**
 * The largest `batch_size` Segment accepts for the Webhooks (Actions) destination, and the size used
 * when batching is on and `batch_size` is absent or 0.
 *
 * @example
 * Math.min(requested, MAX_BATCH_SIZE);
 */
export const MAX_BATCH_SIZE = 4000;
/**
 * Segment's documented default batch size for the Webhooks (Actions) destination, used when
 * `enable_batching` is on and `batch_size` is absent or 0.
 *
 * @example
 * const size = mapping.batch_size || DEFAULT_BATCH_SIZE; // 1000
 */
export const DEFAULT_BATCH_SIZE = 1000;

/**
 * How long a part-full batch waits on the emulator's clock before it is sent (hookgate's choice,
 * `webhooksActions.batchWindowMs`): 10 s.
 *
 * @example
 * clock.advance(DEFAULT_BATCH_WINDOW_MS); // every open batch is sent
 */
export const DEFAULT_BATCH_WINDOW_MS = 10_000;
