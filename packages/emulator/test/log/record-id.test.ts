// A record's id is written and read in one place (recordId / recordSeq); inside, its number is the
// `seq` field. An id from outside that is not exactly as recordId writes it names no record.
import { describe, expect, it } from 'vitest';
import { createEmulator, ManualClock } from '../../src/index.js';
import { recordId, recordSeq } from '../../src/log/delivery-record.js';

describe('record ids', () => {
  it('recordSeq reads back exactly what recordId writes, and nothing else', () => {
    for (const seq of [1, 9, 10, 42, 100_000, Number.MAX_SAFE_INTEGER]) expect(recordSeq(recordId(seq))).toBe(seq);
    for (const id of ['dlv_0', 'dlv_042', 'dlv_1e1', 'dlv_ 1', 'dlv_1.0', 'dlv_-1', 'dlv_', 'DLV_1', '1', 'dlv_0x1'])
      expect(recordSeq(id), id).toBeUndefined();
    for (const notText of [undefined, null, 1, {}]) expect(recordSeq(notText)).toBeUndefined();
  });

  it('a record carries its number; get() finds it by its id only as written', async () => {
    const emulator = createEmulator({ clock: new ManualClock(), sources: [{ writeKey: 'wk' }] });
    try {
      const records = Array.from({ length: 12 }, (_, i) => emulator.track({ userId: `u${i}`, event: 'E' }));
      expect(records.map((r) => r.seq)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
      expect(records.every((r) => r.id === recordId(r.seq))).toBe(true);
      expect(emulator.get('dlv_11')).toBe(records[10]);
      expect(emulator.get('dlv_011')).toBeUndefined();
      expect(emulator.get('dlv_1e1')).toBeUndefined();
    } finally {
      await emulator.close();
    }
  });
});
