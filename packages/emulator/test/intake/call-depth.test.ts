// A call nested deeper than the per-call limit, given to the library's own methods (not the intake):
// refused with a ValidationError naming the field, before anything is counted or recorded, never a
// stack overflow halfway through accepting it.
import { describe, expect, it } from 'vitest';
import { ValidationError } from '@hookgate/core';
import { createEmulator, MAX_CALL_DEPTH } from '../../src/index.js';

function nested(levels: number): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let at = root;
  for (let i = 1; i < levels; i++) {
    const next: Record<string, unknown> = {};
    at.a = next;
    at = next;
  }
  return root;
}

describe('emulator.track / ingest with a deeply nested call', () => {
  it('refuses 6,000 levels with the path of the field, and counts and records nothing', async () => {
    const emulator = createEmulator({
      sources: [{ writeKey: 'wk', webhooks: { enabled: true, endpoints: [{ url: 'http://127.0.0.1:9/hooks' }] } }],
    });
    try {
      let thrown: unknown;
      try {
        emulator.track({ userId: 'u1', event: 'Deep', properties: nested(6000) });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ValidationError);
      expect((thrown as ValidationError).issues[0]!.path).toBe('$.properties');
      expect((thrown as Error).message).toContain(`${MAX_CALL_DEPTH} levels`);
      expect(() =>
        emulator.ingest({ type: 'identify', userId: 'u1', traits: nested(6000) }, { writeKey: 'wk' }),
      ).toThrow(/\$\.traits/);
      expect(emulator.deliveries).toHaveLength(0);
      expect(emulator.usage('wk')).toBe(0);
    } finally {
      await emulator.close();
    }
  });

  it('accepts a call just inside the limit', async () => {
    const emulator = createEmulator({
      sources: [{ writeKey: 'wk', webhooks: { enabled: false, endpoints: [{ url: 'http://127.0.0.1:9/hooks' }] } }],
    });
    try {
      const record = emulator.track({ userId: 'u1', event: 'Deep', properties: nested(MAX_CALL_DEPTH - 1) });
      expect(record.type).toBe('track');
    } finally {
      await emulator.close();
    }
  });
});
