import type { BodyDictionary } from './body-dictionary.js';

/**
 * A few bodies of one source deflated together, back to back, against the source's dictionary
 * (`BodyPacker` makes them). Each record of the group keeps the group and where its body starts in
 * the inflated bytes.
 *
 * @example
 * const group = new PackedGroup(stored.slab, stored.start, stored.length, joined.length, dictionary);
 * group.inflate().subarray(offset, offset + length); // one body's exact bytes
 */
export class PackedGroup {
  constructor(
    /** The deflated bytes are `slab[start, start + bytes)`. */
    readonly slab: Buffer,
    readonly start: number,
    readonly bytes: number,
    /** The bodies' total length once inflated. */
    readonly length: number,
    readonly dictionary: BodyDictionary,
  ) {}

  /**
   * The group's bodies, inflated. The dictionary keeps the last group it inflated: a lane sends a
   * group's bodies one after another, so that is one inflate per group, not per body. Read-only.
   */
  inflate(): Buffer {
    return this.dictionary.inflateKept(this, this.slab.subarray(this.start, this.start + this.bytes), this.length);
  }
}
