import type { BodyArena } from './body-arena.js';
import { SourceDictionaries } from './body-dictionary.js';
import type { LoggedDelivery } from './delivery-record.js';
import { PackedGroup } from './packed-group.js';

/**
 * Bodies per deflate call, at most. node:zlib makes a stream object and a native handle per call, which
 * every young-generation collection keeps alive until a full one: one call per body put ≈ 60 MB of that
 * garbage in the old generation with 100,000 bodies packed (bench/README.md, Emulator). Eight bodies
 * per call cut it to an eighth and halve the deflate time per body; the price is on reading: one body
 * inflates its whole group (the last group inflated is kept, so a lane sending a group's bodies one
 * after another inflates it once).
 */
export const GROUP_BODIES = 8;
/**
 * A group is closed once its bodies reach this many bytes: deflate's window (8 KB) sees no further back.
 * A body this large or larger is packed alone (the open group is closed first), so reading a small body
 * never inflates a large one: a group holds under 2 × GROUP_BYTES, or one body.
 */
export const GROUP_BYTES = 8 * 1024;

/**
 * One source's body packing: its dictionaries, and the group it is filling. A record joins the open
 * group with its body unpacked (in a short-lived staging arena); when the group is full, or at
 * `close()`, its bodies are deflated together and each record is pointed at the packed group.
 *
 * @example
 * const packer = new BodyPacker();
 * packer.add(record, arena); // packs the group once it holds GROUP_BODIES bodies or GROUP_BYTES
 * packer.close(arena); // packs what is left
 */
export class BodyPacker {
  readonly #dictionaries = new SourceDictionaries();
  #open: LoggedDelivery[] = [];
  #openBytes = 0;

  /** Adds a record whose body is stored unpacked; packs the group when it is full. */
  add(record: LoggedDelivery, arena: BodyArena): void {
    const length = record.bodyLength;
    if (length >= GROUP_BYTES && this.#open.length > 0) this.close(arena);
    this.#open.push(record);
    this.#openBytes += length;
    if (this.#open.length >= GROUP_BODIES || this.#openBytes >= GROUP_BYTES) this.close(arena);
  }

  /** Packs the open group's bodies (however many) into `arena`. */
  close(arena: BodyArena): void {
    const records = this.#open;
    if (records.length === 0) return;
    this.#open = [];
    this.#openBytes = 0;
    const bodies = records.map((r) => r.bodyBytes);
    const joined = bodies.length === 1 ? (bodies[0] as Buffer) : Buffer.concat(bodies);
    const dictionary = this.#dictionaries.for(joined);
    const stored = arena.storeBytes(dictionary.deflate(joined));
    const group = new PackedGroup(stored.slab, stored.start, stored.length, joined.length, dictionary);
    let offset = 0;
    records.forEach((record, i) => {
      record.packInto(group, offset);
      offset += (bodies[i] as Buffer).length;
    });
  }
}
