// Overload gets statuses, not resets: ten 50 MB uploads at once, over real sockets, on every set-up
// whose server answers for itself; every client must read a 413.
import { afterEach, describe, expect, it } from 'vitest';
import { SETUPS, type RunningSetup } from './attack-setups.js';
import { uploadOversize } from './oversize-upload.js';

const SECRET = 'whsec_attack_oversize';
const FIFTY_MB = 50 * 1024 * 1024;

let running: RunningSetup | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

// express.json() answers oversize bodies itself (the framework owns that answer; see the README).
const OURS = SETUPS.filter((s) => !s.frameworkReadsBody && !s.name.startsWith("core's fetch"));

for (const setup of OURS) {
  describe(setup.name, () => {
    for (const chunked of [false, true]) {
      it(`ten concurrent 50 MB uploads (${chunked ? 'chunked' : 'Content-Length'}) each read a 413`, async () => {
        running = await setup.start({ secret: SECRET });
        const outcomes = await Promise.all(
          Array.from({ length: 10 }, () => uploadOversize(running!.url, FIFTY_MB, { chunked })),
        );
        expect(outcomes).toEqual(outcomes.map(() => ({ status: 413, code: 'payload_too_large' })));
        expect(running.runs).toEqual([]);
      }, 60_000);
    }
  });
}
