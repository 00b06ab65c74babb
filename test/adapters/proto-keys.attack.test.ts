// Issue #30 item 4: valid signed JSON with a `__proto__` or `constructor.prototype` key is answered the
// same way by every adapter: parsed without polluting any prototype, the key kept as the message's own
// data, 200 (Segment does not retry a 400, so a 400 would lose the message).
import { afterEach, describe, expect, it } from 'vitest';
import { postSigned, uniqueMessage } from '../helpers/signed-requests.js';
import { SETUPS, type RunningSetup } from './attack-setups.js';

const SECRET = 'whsec_proto_keys_5e1a';

describe.each(SETUPS)('$name', (setup) => {
  let running: RunningSetup | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it('a signed body with a __proto__ or constructor.prototype key → 200, kept as data, no prototype polluted', async () => {
    running = await setup.start({ secret: SECRET });
    const cases = [
      { key: '__proto__', tail: '"__proto__":{"isAdmin":true}' },
      { key: 'constructor', tail: '"constructor":{"prototype":{"isAdmin":true}}' },
    ];
    for (const [i, { key, tail }] of cases.entries()) {
      const base = JSON.stringify(uniqueMessage('track')).slice(0, -1);
      const res = await postSigned(running.url, `${base},${tail}}`, { secret: SECRET });
      expect(res.status, key).toBe(200);
      expect(JSON.parse(res.body)).toMatchObject({ ok: true });
      const run = running.runs[i]!;
      expect(Object.prototype.hasOwnProperty.call(run.message, key), key).toBe(true);
      expect(Object.getPrototypeOf(run.message)).toBe(Object.prototype);
      expect((run.message as unknown as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    }
    expect(running.runs).toHaveLength(2);
    expect(({} as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    expect((Object.prototype as { isAdmin?: unknown }).isAdmin).toBeUndefined();
  });
});
