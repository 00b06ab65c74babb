/**
 * Largest call accepted, in bytes of its JSON as sent (the tracking API's limit: 32 KB per call). A bigger call is
 * refused at call time with a `CallTooLargeError`; the calls around it are not affected.
 *
 * @example
 * import { MAX_CALL_BYTES } from '@hookgate/client';
 * if (Buffer.byteLength(JSON.stringify(properties)) > MAX_CALL_BYTES) trimProperties();
 */
export const MAX_CALL_BYTES = 32 * 1024;

/**
 * Largest batch request body the client sends, in bytes (the tracking API's limit: 500 KB per batch). Counted as
 * 500,000 bytes so that no intake's reading of "KB" can refuse a batch: a refused batch is a 4xx,
 * which is not retried. A flush bigger than this is split into several requests, never dropped.
 *
 * @example
 * import { MAX_BATCH_BYTES } from '@hookgate/client';
 * console.log(MAX_BATCH_BYTES); // 500000
 */
export const MAX_BATCH_BYTES = 500_000;
