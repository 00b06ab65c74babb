import { toBytes, toHex } from '../signatures/bytes.js';
import { nodeCrypto } from '../signatures/node-crypto.js';

/**
 * The dedupe key of a message: `id:<messageId>` when the message carries one, else `sha256:<hex>` of
 * the body bytes (a retry resends the same bytes). At once, but for the Web Crypto digest (a promise).
 *
 * @example
 * await dedupeKey({ messageId: 'm1' }, raw); // 'id:m1'
 */
export function dedupeKey(message: unknown, body: string | Uint8Array): string | Promise<string> {
  const byId = messageIdKey(message);
  if (byId !== undefined) return byId;
  const c = nodeCrypto();
  if (c) return `sha256:${c.createHash('sha256').update(body).digest('hex')}`;
  return crypto.subtle
    .digest('SHA-256', toBytes(body) as BufferSource)
    .then((digest) => `sha256:${toHex(new Uint8Array(digest))}`);
}

/**
 * The dedupe key of a message that carries a usable `messageId` (`id:<messageId>`: a string of 1 to
 * 512 characters, well-formed UTF-16), made without waiting; `undefined` when the key must be a
 * digest of the body (`dedupeKey`).
 *
 * @example
 * messageIdKey({ messageId: 'm1' }); // 'id:m1'
 * messageIdKey({ event: 'x' }); // undefined
 */
export function messageIdKey(message: unknown): string | undefined {
  const id = (message as { messageId?: unknown } | null)?.messageId;
  // A lone surrogate (JSON's "\ud800") is stored as U+FFFD by any UTF-8 store (Redis, BullMQ), so two
  // such ids would share one key there: those messages are keyed by their body instead.
  return typeof id === 'string' && id.length > 0 && id.length <= 512 && !LONE_SURROGATE.test(id)
    ? `id:${id}`
    : undefined;
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one (by code unit: every runtime has it, unlike `isWellFormed`). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
