// bigNumbers: 'string' with a tracking plan, attacked: a limit set inside `allOf` (not on the property's
// own schema) must still be reported for a number kept as exact digits — the exact re-check replaces only
// the verdicts of the keywords it re-makes, never drops one it does not.
import { afterEach, expect, it } from 'vitest';
import type { PlanViolation } from '../src/index.js';
import { SECRET, send, serveReceiver, type ServedReceiver } from './helpers/receiver-server.js';

let srv: ServedReceiver | undefined;
afterEach(async () => {
  await srv?.receiver.drain();
  await srv?.close();
  srv = undefined;
});

const PLAN = [
  {
    type: 'TRACK',
    key: 'Order Completed',
    version: 1,
    jsonSchema: {
      type: 'object',
      properties: {
        properties: {
          type: 'object',
          properties: {
            qty: { type: 'integer', allOf: [{ maximum: 10 }] },
            total: { type: 'number', minimum: 0, allOf: [{ maximum: 1000 }] },
          },
        },
      },
    },
  },
];

it("a limit inside allOf is reported for a number kept as exact digits (bigNumbers: 'string')", async () => {
  const seen: (readonly PlanViolation[])[] = [];
  srv = await serveReceiver({
    secret: SECRET,
    bigNumbers: 'string',
    trackingPlan: PLAN,
    on: { track: (_msg, ctx) => void seen.push(ctx.violations) },
  });
  const body =
    '{"version":1,"type":"track","event":"Order Completed","userId":"u1","timestamp":"2026-11-21T12:00:00.000Z",' +
    '"properties":{"qty":12345678901234567890123,"total":98765432109876543210}}';
  expect((await send(srv.url, body)).status).toBe(200);
  await srv.receiver.drain();
  expect(seen[0]!.map((v) => `${v.path} ${v.keyword}: ${v.message}`).sort()).toEqual([
    'properties.qty maximum: must be <= 10',
    'properties.total maximum: must be <= 1000',
  ]);
});
