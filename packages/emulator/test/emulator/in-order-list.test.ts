// InOrderList: the in-flight requests and the manual clock's open I/O are kept in it (one add and one
// delete per attempt, no hash table rebuilt).
import { describe, expect, it } from 'vitest';
import { InOrderList, type ListLinks } from '../../src/in-order-list.js';

interface Item extends ListLinks<Item> {
  n: number;
}
const item = (n: number): Item => ({ n, prev: undefined, next: undefined, listed: false });
const ns = (list: InOrderList<Item>) => list.toArray().map((i) => i.n);

describe('InOrderList', () => {
  it('keeps items in the order added; deletes from the front, the middle and the end in O(1)', () => {
    const list = new InOrderList<Item>();
    const items = Array.from({ length: 6 }, (_, n) => item(n));
    for (const i of items) list.push(i);
    expect(ns(list)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(list.delete(items[0] as Item)).toBe(true);
    expect(list.delete(items[3] as Item)).toBe(true);
    expect(list.delete(items[5] as Item)).toBe(true);
    expect(ns(list)).toEqual([1, 2, 4]);
    expect(list.size).toBe(3);
    expect(list.first?.n).toBe(1);
    // Deleting again, or an item never added: false, and nothing changes.
    expect(list.delete(items[3] as Item)).toBe(false);
    expect(list.delete(item(9))).toBe(false);
    expect(ns(list)).toEqual([1, 2, 4]);
    // A deleted item can be added again, at the end; its links are cleared when it leaves.
    list.push(items[0] as Item);
    expect(ns(list)).toEqual([1, 2, 4, 0]);
    for (const i of list.toArray()) list.delete(i);
    expect(list.size).toBe(0);
    expect(list.first).toBeUndefined();
    expect(items.every((i) => i.prev === undefined && i.next === undefined && !i.listed)).toBe(true);
  });

  it('refuses an item that is already in a list (its links would be overwritten)', () => {
    const a = new InOrderList<Item>();
    const b = new InOrderList<Item>();
    const x = item(1);
    a.push(x);
    expect(() => a.push(x)).toThrow(/already in a list/);
    expect(() => b.push(x)).toThrow(/already in a list/);
    expect(ns(a)).toEqual([1]);
  });

  it('walking from the front while deleting and adding at the end sees every item once (how deadlines expire)', () => {
    const list = new InOrderList<Item>();
    for (let n = 0; n < 5; n++) list.push(item(n));
    const seen: number[] = [];
    let added = 0;
    for (let i = list.first; i !== undefined; i = list.first) {
      seen.push(i.n);
      list.delete(i);
      if (added++ < 2) list.push(item(10 + added)); // a request started by the one that ended
    }
    expect(seen).toEqual([0, 1, 2, 3, 4, 11, 12]);
    expect(list.size).toBe(0);
  });
});
