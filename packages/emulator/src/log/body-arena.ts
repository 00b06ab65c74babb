import type { PackedGroup } from './packed-group.js';

/**
 * Where a body's bytes are: `slab[start, start + length)`; or, when `packed` is set, at
 * `[start, start + length)` of what the packed group inflates to (its bodies back to back).
 */
export interface StoredBody {
  readonly slab: Buffer;
  readonly start: number;
  /** The body's own length in bytes (UTF-8), packed or not: what `Content-Length` says. */
  readonly length: number;
  readonly packed?: PackedGroup;
}

/** Size of one arena slab, by default. */
const SLAB_BYTES = 1 << 20;

/**
 * Keeps message bodies as UTF-8 bytes packed in 1 MB slabs. The delivery log keeps every body for
 * the emulator's life, so packing them costs nothing in reuse and saves a separate allocation (and
 * its bookkeeping) per message: with 100,000 bodies waiting for a retry that is tens of MB.
 *
 * @example
 * const arena = new BodyArena();
 * const { slab, start, length } = arena.store('{"type":"track"}');
 * slab.toString('utf8', start, start + length); // '{"type":"track"}'
 */
export class BodyArena {
  #slab: Buffer = Buffer.allocUnsafeSlow(0);
  #offset = 0;
  readonly #slabBytes: number;
  /** Bodies larger than this get a buffer of their own. */
  readonly #largeBody: number;

  /** `slabBytes`: the size of each slab (1 MB; smaller for an arena whose bodies are short-lived). */
  constructor(slabBytes = SLAB_BYTES) {
    this.#slabBytes = slabBytes;
    this.#largeBody = slabBytes >> 3;
  }

  /** Copies a body's UTF-8 bytes into the arena and says where they are. */
  store(text: string): StoredBody {
    // A UTF-16 code unit takes at most 3 UTF-8 bytes: when that much room is left, encode once, in place.
    if (text.length * 3 <= this.#slab.length - this.#offset) return this.#append(text);
    const length = Buffer.byteLength(text, 'utf8');
    if (length > this.#largeBody) {
      const own = Buffer.allocUnsafeSlow(length);
      own.write(text, 'utf8');
      return { slab: own, start: 0, length };
    }
    if (length > this.#slab.length - this.#offset) {
      this.#slab = Buffer.allocUnsafeSlow(this.#slabBytes);
      this.#offset = 0;
    }
    return this.#append(text);
  }

  /** Copies bytes into the arena and says where they are. */
  storeBytes(bytes: Uint8Array): StoredBody {
    const length = bytes.length;
    if (length > this.#largeBody) {
      const own = Buffer.allocUnsafeSlow(length);
      own.set(bytes);
      return { slab: own, start: 0, length };
    }
    if (length > this.#slab.length - this.#offset) {
      this.#slab = Buffer.allocUnsafeSlow(this.#slabBytes);
      this.#offset = 0;
    }
    const start = this.#offset;
    this.#slab.set(bytes, start);
    this.#offset = start + length;
    return { slab: this.#slab, start, length };
  }

  #append(text: string): StoredBody {
    const start = this.#offset;
    const length = this.#slab.write(text, start, 'utf8');
    this.#offset = start + length;
    return { slab: this.#slab, start, length };
  }
}
