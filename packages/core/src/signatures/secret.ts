/**
 * A shared secret: a string (its UTF-8 bytes) or raw bytes.
 *
 * @example
 * const current: Secret = process.env.WEBHOOK_SECRET!;
 * const previous: Secret = new TextEncoder().encode(process.env.OLD_WEBHOOK_SECRET!);
 * verify({ signature, secret: [current, previous], rawBody });
 */
export type Secret = string | Uint8Array;
