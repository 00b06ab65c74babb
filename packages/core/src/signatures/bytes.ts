const encoder = new TextEncoder();

/**
 * A body as bytes, a string (its UTF-8 bytes are meant) or an `ArrayBuffer`.
 *
 * @example
 * const body: BodyInput = await request.arrayBuffer();
 * const signature = await signAsync(body, secret);
 */
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

/** The value of one hex digit's char code (either case), or -1. */
function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48; // 0-9
  const lower = c | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1; // a-f, A-F
}

const isBlank = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;

/**
 * Decodes a header holding exactly `byteLength` bytes in hex (either case; spaces, tabs and line
 * breaks around it ignored) in one pass, or gives `undefined` for anything else. No regex, no
 * intermediate strings: this runs on every verification.
 */
export function decodeHexHeader(text: string, byteLength: number): Uint8Array | undefined {
  let start = 0;
  let end = text.length;
  while (start < end && isBlank(text.charCodeAt(start))) start++;
  while (end > start && isBlank(text.charCodeAt(end - 1))) end--;
  if (end - start !== byteLength * 2) return undefined;
  const out = new Uint8Array(byteLength);
  for (let i = 0; i < byteLength; i++) {
    const hi = hexDigit(text.charCodeAt(start + 2 * i));
    const lo = hexDigit(text.charCodeAt(start + 2 * i + 1));
    if (hi < 0 || lo < 0) return undefined;
    out[i] = (hi << 4) | lo;
  }
  return out;
}

/** How many characters a header holds once the blanks around it are left out. */
export function trimmedLength(text: string): number {
  let start = 0;
  let end = text.length;
  while (start < end && isBlank(text.charCodeAt(start))) start++;
  while (end > start && isBlank(text.charCodeAt(end - 1))) end--;
  return end - start;
}

/**
 * Compares two byte arrays in time that depends only on their length, never on where they differ.
 * Uses `crypto.timingSafeEqual` when given it.
 *
 * @example
 * import { timingSafeEqual } from 'node:crypto';
 * constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2])); // true
 * constantTimeEqual(expected, given, timingSafeEqual); // node:crypto's comparison
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
