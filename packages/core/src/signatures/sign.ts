import { toBytes, toHex, type BodyInput } from './bytes.js';
import { requireNodeCrypto } from './node-crypto.js';
import type { Secret } from './secret.js';

/**
 * The header the sender puts the signature in. Lowercase, as Node and fetch present header names.
 *
 * @example
 * const signature = request.headers.get(SIGNATURE_HEADER);
 * const result = await verifyAsync({ signature, secret, rawBody: await request.arrayBuffer() });
 */
export const SIGNATURE_HEADER = 'x-signature';

export type { Secret } from './secret.js';

/**
 * Signs a body as the sender does: lowercase hex HMAC-SHA1 keyed with the shared secret,
 * over the body's UTF-8 bytes. Sync, on `node:crypto` (Node, Bun, Deno).
 *
 * @example
 * const body = JSON.stringify(message);
 * headers['X-Signature'] = sign(body, process.env.WEBHOOK_SECRET!);
 */
export function sign(body: BodyInput, secret: Secret): string {
  const crypto = requireNodeCrypto('sign');
  return (
    crypto
      .createHmac('sha1', secret)
      // Stryker disable next-line ConditionalExpression: a string and its UTF-8 bytes give the same HMAC (the string skips a copy)
      .update(typeof body === 'string' ? body : toBytes(body))
      .digest('hex')
  );
}

/**
 * Imports a secret as a Web Crypto HMAC-SHA1 key. Nothing is cached here: a receiver imports its
 * secrets once and keeps the keys; `signAsync` and `verifyAsync` import per call.
 *
 * @example
 * const key = await importHmacKey(secret);
 * const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(body));
 */
export function importHmacKey(secret: Secret): Promise<CryptoKey> {
  // Stryker disable next-line BooleanLiteral: an extractable key signs the same
  return crypto.subtle.importKey('raw', toBytes(secret) as BufferSource, { name: 'HMAC', hash: 'SHA-1' }, false, [
    'sign',
  ]);
}

/**
 * The raw HMAC-SHA1 digest bytes over a body, with Web Crypto.
 *
 * @example
 * const digest = await hmacSha1Web(body, await importHmacKey(secret));
 * digest.length; // 20
 */
export async function hmacSha1Web(body: BodyInput, key: CryptoKey): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, toBytes(body) as BufferSource));
}

/**
 * Signs a body with Web Crypto (Workers, browsers, Deno, Bun): same result as `sign`, asynchronously.
 *
 * @example
 * const signature = await signAsync(JSON.stringify(message), env.WEBHOOK_SECRET);
 */
export async function signAsync(body: BodyInput, secret: Secret): Promise<string> {
  return toHex(await hmacSha1Web(body, await importHmacKey(secret)));
}
