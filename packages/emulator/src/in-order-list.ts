/**
 * The links an item of an `InOrderList` carries (set by the list; start them `undefined` / `false`).
 *
 * @example
 * interface Entry extends ListLinks<Entry> { deadlineMs: number }
 */
export interface ListLinks<T> {
  prev: T | undefined;
  next: T | undefined;
  listed: boolean;
}

/**
 * Items in the order they were added, removable in O(1), with the links kept in the items themselves.
 * For sets that churn — one add and one delete per HTTP attempt — where a `Set` rebuilt its hash table
 * every few dozen changes: with 100,000 records alive that garbage went to the old generation and
 * raised the peak RSS by about 10 MB (bench/README.md, Emulator).
 *
 * @example
 * const list = new InOrderList<Entry>();
 * list.push(entry);
 * for (let e = list.first; e; e = e.next) console.log(e.deadlineMs);
 * list.delete(entry); // true
 */
export class InOrderList<T extends ListLinks<T>> {
  #first: T | undefined = undefined;
  #last: T | undefined = undefined;
  #size = 0;

  /** How many items are in the list. */
  get size(): number {
    return this.#size;
  }

  /** The oldest item. */
  get first(): T | undefined {
    return this.#first;
  }

  /** Appends an item (not in a list yet). */
  push(item: T): void {
    if (item.listed) throw new Error('InOrderList.push: the item is already in a list');
    item.listed = true;
    item.prev = this.#last;
    item.next = undefined;
    if (this.#last) this.#last.next = item;
    else this.#first = item;
    this.#last = item;
    this.#size++;
  }

  /** Removes an item; false when it was not in the list. */
  delete(item: T): boolean {
    if (!item.listed) return false;
    const { prev, next } = item;
    if (prev) prev.next = next;
    else this.#first = next;
    if (next) next.prev = prev;
    else this.#last = prev;
    item.prev = undefined;
    item.next = undefined;
    item.listed = false;
    this.#size--;
    return true;
  }

  /** The items, oldest first, as an array (safe to change the list while going through it). */
  toArray(): T[] {
    const out: T[] = [];
    for (let item = this.#first; item; item = item.next) out.push(item);
    return out;
  }
}
