/**
 * Largest call the intake accepts, measured as the UTF-8 bytes of `JSON.stringify(call)` (the tracking API's limit: 32 KB).
 *
 * @example
 * if (Buffer.byteLength(JSON.stringify(call)) > MAX_CALL_BYTES) splitOrTrim(call);
 */
export const MAX_CALL_BYTES = 32 * 1024;

/**
 * Deepest call the intake accepts, in levels of objects and arrays (the call itself is level 1): a
 * deeper call is refused alone, with the path of the field that nests too deeply. JSON this deep is
 * rare in analytics data, and every later stage (sizing, signing, a receiver's own code) stays far
 * from any stack limit.
 *
 * @example
 * const call = { type: 'track', userId: 'u1', event: 'E', properties: { a: { b: 1 } } }; // 3 levels
 */
export const MAX_CALL_DEPTH = 100;

/**
 * Largest request body the intake accepts, in bytes after decompression (the tracking API's limit: 500 KB).
 *
 * @example
 * await emulator.listen({ maxBatchBytes: MAX_BATCH_BYTES / 2 }); // stricter than the service
 */
export const MAX_BATCH_BYTES = 500 * 1024;

/** The URL paths of the tracking API the intake serves, each with the call type it implies. */
export const CALL_ROUTES = {
  '/v1/identify': 'identify',
  '/v1/track': 'track',
  '/v1/page': 'page',
  '/v1/screen': 'screen',
  '/v1/group': 'group',
  '/v1/alias': 'alias',
} as const;

/** The URL paths that take a batch: `/v1/import` behaves as `/v1/batch` (historical import, timestamps kept). */
export const BATCH_ROUTES = ['/v1/batch', '/v1/import'] as const;

/** The inspection routes (GET). */
export const INSPECTION_ROUTES = { deliveries: '/_hookgate/deliveries', health: '/_hookgate/health' } as const;
