/**
 * The number of bytes of a string's UTF-8 encoding, counted without encoding it (no allocation);
 * a lone surrogate counts as the 3 bytes of U+FFFD, as `TextEncoder` writes it.
 *
 * @example
 * utf8ByteLength('café'); // 5
 */
export function utf8ByteLength(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a surrogate pair: 4 bytes for 2 UTF-16 units
      i++;
    } else bytes += 2;
  }
  return bytes;
}
