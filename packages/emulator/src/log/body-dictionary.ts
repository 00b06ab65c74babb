import { deflateRawSync } from 'node:zlib';
import { inflateSync } from 'fflate';

/**
 * An 8 KB window (the dictionary: a source's first few bodies) and a small hash table: bodies are
 * about 1 KB, and they pack to ≈ 0.25 of their size, with about 40 KB of deflate state per call instead
 * of zlib's default 320 KB (allocated and freed per call: it fragments the process's memory).
 */
const DEFLATE = { windowBits: 13, memLevel: 4 } as const;
/** `inflateKept` keeps results up to this size (a packed group of small bodies is under 16 KB). */
const KEPT_BYTES = 16 * 1024;
/** A dictionary longer than the window only helps through its last bytes. */
const WINDOW_BYTES = 1 << DEFLATE.windowBits;

/**
 * Deflates message bodies against a dictionary: bodies of the same source, kept once. Bodies of one
 * source share most of their text (keys, event names, ids' prefixes), so a 1 KB track body packs to
 * about 0.25 of its size against the source's first bodies, where plain deflate gets about 0.55. What
 * one call packed (a body, or a `BodyPacker` group of a few) inflates on its own, back to the exact bytes.
 *
 * @example
 * const dictionary = new BodyDictionary(Buffer.from(firstBody));
 * const packed = dictionary.deflate(Buffer.from(body));
 * dictionary.inflate(packed, Buffer.byteLength(body)).toString('utf8') === body; // true
 */
export class BodyDictionary {
  readonly #bytes: Buffer;
  /** The last kept `inflateKept` result and its key (weakly: the cache never keeps a group's record alive). */
  #keptKey: WeakRef<object> | undefined = undefined;
  #kept: Buffer | undefined = undefined;

  constructor(sample: Uint8Array) {
    const tail = sample.length > WINDOW_BYTES ? sample.subarray(sample.length - WINDOW_BYTES) : sample;
    // A copy of its own: the sample may be a view of a shared slab or of a socket's buffer.
    this.#bytes = Buffer.from(tail);
  }

  /** Deflates one body (raw deflate, no header: the record knows its dictionary and length). */
  deflate(body: Uint8Array): Buffer {
    // Output room for the body plus deflate's worst-case overhead, in one buffer (zlib's default is a
    // 16 KB chunk per call: garbage outside the heap that piles up between collections).
    return deflateRawSync(body, {
      ...DEFLATE,
      dictionary: this.#bytes,
      chunkSize: Math.max(64, body.length + (body.length >> 3) + 64),
    });
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
    if (inflated.length !== length)
      throw new Error(
        `a packed body inflated to ${inflated.length} bytes instead of ${length}: the body store is damaged`,
      );
    return out;
  }

  /**
   * `inflate`, keeping the result for the next call with the same `key` (one entry: the last key, held
   * weakly; only results up to `KEPT_BYTES`). The buffer returned may be shared by those calls: read
   * it, do not change it.
   */
  inflateKept(key: object, packed: Uint8Array, length: number): Buffer {
    const kept = this.#kept;
    if (kept !== undefined && this.#keptKey?.deref() === key) return kept;
    const bytes = this.inflate(packed, length);
    // A large body is read once per attempt at most: keeping it would only hold its memory.
    if (length <= KEPT_BYTES) {
      this.#kept = bytes;
      this.#keptKey = new WeakRef(key);
    }
    return bytes;
  }
}

/** How many of a source's first packed bodies make its lasting dictionary. */
const SAMPLE_BODIES = 8;

/**
 * A source's dictionaries: its first packed body serves as the dictionary at once; once it has packed
 * `SAMPLE_BODIES` bodies (or 8 KB of them), their concatenation becomes the dictionary for every later
 * body (a wider sample of the source's keys and values packs ≈ 14% smaller). A record keeps the
 * dictionary its body was packed with, so earlier bodies still inflate.
 *
 * @example
 * const dictionaries = new SourceDictionaries();
 * const dictionary = dictionaries.for(bytes); // then dictionary.deflate(bytes)
 */
export class SourceDictionaries {
  #current: BodyDictionary | undefined = undefined;
  #samples: Buffer[] | undefined = [];
  #sampledBytes = 0;

  /** The dictionary to pack `body` with (the body counts toward the sample). */
  for(body: Uint8Array): BodyDictionary {
    const samples = this.#samples;
    if (samples === undefined) return this.#current as BodyDictionary;
    samples.push(Buffer.from(body));
    this.#sampledBytes += body.length;
    if (samples.length >= SAMPLE_BODIES || this.#sampledBytes >= WINDOW_BYTES) {
      // The current body is part of the sample: it packs against a dictionary that holds it, which is fine.
      this.#current = new BodyDictionary(Buffer.concat(samples, this.#sampledBytes));
      this.#samples = undefined;
    } else {
      this.#current ??= new BodyDictionary(body);
    }
    return this.#current;
  }
}
