// The 5 MB oversize body again, on a keep-alive connection with a second request pipelined behind it,
// from a client in its own process that writes everything before it reads: each set-up must answer
// the 413 (never a reset), and the request behind it is either answered in order or the connection
// closes after the 413; no handler runs for the refused body.
import { fileURLToPath } from 'node:url';
import { sign } from '@hookgate/core';
import { afterEach, describe, expect, it } from 'vitest';
import { SETUPS, type RunningSetup } from './attack-setups.js';
import type { RawOutcome, RawPlan } from './raw-attack-client.js';
import { runOutcomesProcess } from '../helpers/outcomes-process.js';

const CLIENT = fileURLToPath(new URL('./raw-attack-client.ts', import.meta.url));
const SECRET = 'whsec_keepalive_attack';
const FIVE_MB = 5 * 1024 * 1024;

function clients(plans: RawPlan[]): Promise<RawOutcome[]> {
  return runOutcomesProcess<RawOutcome[]>(CLIENT, plans);
}

const SETUP_NAMES = [
  "core's node listener",
  'express',
  'fastify plugin',
  'fastify webhookRoute (hookgateRawBody scope)',
  'hono on node',
  'hono on node, pass-through (the route reads c.req.text())',
];

let running: RunningSetup | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('5 MB then a pipelined request on one keep-alive connection, read only after writing', () => {
  for (const name of SETUP_NAMES) {
    const setup = SETUPS.find((s) => s.name === name)!;
    it(`${name}: 413 first, never a reset; the request behind it answered in order or the connection closed`, async () => {
      running = await setup.start({ secret: SECRET });
      const url = new URL(running.url);
      const port = Number(url.port);
      const good = JSON.stringify({
        type: 'track',
        userId: 'u1',
        event: 'Behind',
        timestamp: '2026-01-01T00:00:00.000Z',
        version: 1,
        messageId: 'behind-1',
      });
      const second = `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nX-Signature: ${sign(good, SECRET)}\r\nContent-Length: ${good.length}\r\n\r\n${good}`;
      const head = (framing: string) =>
        `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nX-Signature: ${'ab'.repeat(20)}\r\n${framing}\r\n\r\n`;
      const outcomes = await clients([
        {
          port,
          send: head(`Content-Length: ${FIVE_MB}`),
          fill: { bytes: FIVE_MB, then: second },
          readFromMs: 1_200,
          waitMs: 4_500,
        },
        {
          port,
          send: head('Transfer-Encoding: chunked'),
          fill: { bytes: FIVE_MB, chunked: true, then: second },
          readFromMs: 1_200,
          waitMs: 4_500,
        },
      ]);
      for (const o of outcomes) {
        const where = JSON.stringify({ ...o, received: o.received.slice(0, 600) });
        expect(o.error, where).toBeUndefined();
        expect(o.statuses[0], where).toBe(413);
        // Behind it: the good request's 200, or nothing (the server closed after the 413).
        expect(
          o.statuses.slice(1).every((s) => s === 200),
          where,
        ).toBe(true);
        expect(o.statuses.length, where).toBeLessThanOrEqual(2);
      }
      const answeredBehind = outcomes.filter((o) => o.statuses[1] === 200).length;
      // Each 200 behind a 413 is one handler run of the good message (handled once: its messageId dedupes the second).
      expect(running.runs.length).toBe(Math.min(answeredBehind, 1));
    }, 30_000);
  }
});
