import { deflateRawSync } from 'node:zlib';
import { inflateSync } from 'fflate';

/**
 * A 4 KB window and a small hash table: bodies are about 1 KB, and against a dictionary of the same
 * source they pack as well as with zlib's defaults (≈ 0.29), with about 20 KB of deflate state per call
 * instead of about 320 KB (allocated and freed per call: it fragments the process's memory).
 */
const DEFLATE = { windowBits: 12, memLevel: 4 } as const;
/** A dictionary longer than the window only helps through its last bytes. */
const WINDOW_BYTES = 1 << DEFLATE.windowBits;

/**
 * Deflates message bodies against a dictionary: a body of the same source, kept once. Bodies of one
 * source share most of their text (keys, event names, ids' prefixes), so a 1 KB track body packs to
 * about 0.3 of its size against the source's first body, where plain deflate gets about 0.55. Each
 * packed body inflates on its own (no state between bodies), back to the exact bytes that were signed.
 *
 * @example
 * const dictionary = new BodyDictionary(Buffer.from(firstBody));
 * const packed = dictionary.deflate(Buffer.from(body));
 * dictionary.inflate(packed, Buffer.byteLength(body)).toString('utf8') === body; // true
 */
export class BodyDictionary {
  readonly #bytes: Buffer;

  constructor(sample: Uint8Array) {
    const tail = sample.length > WINDOW_BYTES ? sample.subarray(sample.length - WINDOW_BYTES) : sample;
    // A copy of its own: the sample may be a view of a shared slab or of a socket's buffer.
    this.#bytes = Buffer.from(tail);
  }

  /** The dictionary's size in bytes. */
  get size(): number {
    return this.#bytes.length;
  }

  /** Deflates one body (raw deflate, no header: the record knows its dictionary and length). */
  deflate(body: Uint8Array): Buffer {
    // Output room for the body plus deflate's worst-case overhead, in one buffer (zlib's default is a
    // 16 KB chunk per call: garbage outside the heap that piles up between collections).
    return deflateRawSync(body, { ...DEFLATE, dictionary: this.#bytes, chunkSize: Math.max(64, body.length + (body.length >> 3) + 64) });
  }

  /**
   * Inflates a body packed by `deflate` with this dictionary; `length` is its size once inflated.
   * With fflate (plain JavaScript, into a buffer of the right size): node:zlib makes a stream object and
   * a native handle per call, which outlive young-generation collections, and one inflate per attempt
   * piled them up in the old generation (tens of MB of garbage with 100,000 messages waiting).
   */
  inflate(packed: Uint8Array, length: number): Buffer {
    const out = Buffer.allocUnsafe(length);
    const inflated = inflateSync(packed, { dictionary: this.#bytes, out });
    if (inflated.length !== length) throw new Error(`a packed body inflated to ${inflated.length} bytes instead of ${length}: the body store is damaged`);
    return out;
  }
}
