import { toBytes, toHex } from '../signatures/bytes.js';
import { nodeCrypto } from '../signatures/node-crypto.js';

/**
 * The dedupe key of a message: `id:<messageId>` when the message carries one, else `sha256:<hex>` of
 * the body bytes (a retry resends the same bytes).
 *
 * @example
 * await dedupeKey({ messageId: 'm1' }, raw); // 'id:m1'
 */
export async function dedupeKey(message: unknown, body: string | Uint8Array): Promise<string> {
  const id = (message as { messageId?: unknown } | null)?.messageId;
  if (typeof id === 'string' && id.length > 0 && id.length <= 512) return `id:${id}`;
  const c = nodeCrypto();
  if (c) return `sha256:${c.createHash('sha256').update(body).digest('hex')}`;
  return `sha256:${toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', toBytes(body) as BufferSource)))}`;
}
