const encoder = new TextEncoder();

/** A body as bytes, a string (its UTF-8 bytes are meant) or an `ArrayBuffer`. */
export type BodyInput = string | Uint8Array | ArrayBuffer;

/** UTF-8 bytes of a body. */
export function toBytes(body: BodyInput): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof Uint8Array) return body;
  return new Uint8Array(body);
}

/** Lowercase hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += (bytes[i] as number).toString(16).padStart(2, '0');
  return out;
}

/** Bytes of a hex string already checked to be well formed. */
export function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/**
 * Compares two byte arrays in time that depends only on their length, never on where they differ.
 * Uses `crypto.timingSafeEqual` when given it.
 */
export function constantTimeEqual(
  a: Uint8Array,
  b: Uint8Array,
  timingSafeEqual?: (a: Uint8Array, b: Uint8Array) => boolean,
): boolean {
  if (a.length !== b.length) return false;
  if (timingSafeEqual) return timingSafeEqual(a, b);
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}
