import type * as NodeCrypto from 'node:crypto';
import { nodeHmacKey } from './hmac-key.js';
import type { Secret } from './sign.js';

const BLOCK = 64; // SHA-1's block size in bytes
const DIGEST = 20;
/** Bodies up to this size go through the one-shot path; larger ones through `createHmac` (no big scratch kept). */
const MAX_ONE_SHOT_BODY = 64 * 1024;
const MAX_CACHED_PADS = 64;

type NodeBuffer = Uint8Array & { write(text: string, offset: number, encoding: 'utf8'): number };
type BufferStatic = { allocUnsafe(size: number): NodeBuffer; byteLength(text: string, encoding: 'utf8'): number };
type OneShotHash = (algorithm: string, data: Uint8Array, outputEncoding: 'buffer') => Uint8Array;

const encoder = new TextEncoder();
const pads = new Map<string, { inner: Uint8Array; outer: Uint8Array }>();
let scratch: NodeBuffer | undefined;
let outerScratch: Uint8Array | undefined;

// Stryker disable all: which path computes the HMAC (the one-shot hashes or createHmac) and what is cached
// change speed, not digests: every mutant that only picks another path or skips the cache is equivalent.
// signatures-pinned.test.ts checks both paths against createHmac for keys and bodies of every size.
/** The HMAC pads of a key (RFC 2104): the key, hashed first when longer than a block, XOR 0x36 / 0x5c. */
function padsOf(hash: OneShotHash, secret: Secret) {
  // String secrets are cached by value; bytes are not cached (the caller may change them between calls).
  let p = typeof secret === 'string' ? pads.get(secret) : undefined;
  if (p === undefined) {
    let key: Uint8Array = typeof secret === 'string' ? encoder.encode(secret) : secret;
    if (key.length > BLOCK) key = hash('sha1', key, 'buffer');
    const inner = new Uint8Array(BLOCK).fill(0x36);
    const outer = new Uint8Array(BLOCK).fill(0x5c);
    for (let i = 0; i < key.length; i++) {
      inner[i] = (inner[i] as number) ^ (key[i] as number);
      outer[i] = (outer[i] as number) ^ (key[i] as number);
    }
    p = { inner, outer };
    if (typeof secret === 'string') {
      if (pads.size >= MAX_CACHED_PADS) pads.clear();
      pads.set(secret, p);
    }
  }
  return p;
}

/**
 * HMAC-SHA1 of a body on node:crypto. Where the runtime has the one-shot `crypto.hash` (Node ≥ 20.12)
 * and `Buffer`, it computes RFC 2104's H(K⊕opad ‖ H(K⊕ipad ‖ body)) with two one-shot hashes over a
 * reused scratch buffer: `createHmac` builds a stream object and makes OpenSSL look the digest up again
 * on every call, which under load costs more than hashing a 1 KB body. Otherwise, and for bodies over
 * 64 KB, it is `createHmac`. The same bytes either way (tested against `createHmac`).
 *
 * @example
 * const digest = hmacSha1Node(nodeCrypto()!, secret, rawBody); // 20 bytes
 */
export function hmacSha1Node(crypto: typeof NodeCrypto, secret: Secret, body: string | Uint8Array): Uint8Array {
  const hash = (crypto as { hash?: unknown }).hash as OneShotHash | undefined;
  const Buffer = (globalThis as { Buffer?: BufferStatic }).Buffer;
  if (typeof hash === 'function' && Buffer !== undefined) {
    const size =
      typeof body === 'string'
        ? body.length * 3 <= MAX_ONE_SHOT_BODY
          ? body.length * 3
          : Buffer.byteLength(body, 'utf8')
        : body.byteLength;
    if (size <= MAX_ONE_SHOT_BODY) {
      const { inner, outer } = padsOf(hash, secret);
      scratch ??= Buffer.allocUnsafe(BLOCK + MAX_ONE_SHOT_BODY);
      outerScratch ??= Buffer.allocUnsafe(BLOCK + DIGEST);
      scratch.set(inner, 0);
      const length =
        typeof body === 'string' ? scratch.write(body, BLOCK, 'utf8') : (scratch.set(body, BLOCK), body.byteLength);
      const innerDigest = hash('sha1', scratch.subarray(0, BLOCK + length), 'buffer');
      outerScratch.set(outer, 0);
      outerScratch.set(innerDigest, BLOCK);
      return hash('sha1', outerScratch, 'buffer');
    }
  }
  return crypto.createHmac('sha1', nodeHmacKey(crypto, secret)).update(body).digest();
}
// Stryker restore all
