// bigNumbers: 'string' with a tracking plan, over a real node:http server: a number kept as its exact
// digits is checked as the number it is — `type: number` / `integer` hold, and `minimum`, `maximum`,
// `exclusiveMinimum`, `exclusiveMaximum` and `multipleOf` compare exactly, where a double would round.
import { afterEach, describe, expect, it } from 'vitest';
import type { HandlerContext, PlanViolation, ReceiverOptions } from '@hookgate/core';
import { compareDecimal, isMultipleOfDecimal, parseDecimal } from '../src/exact-decimal.js';
import { compileTrackingPlan } from '../src/index.js';
import { hmac, SECRET, send, serveReceiver, type ServedReceiver } from '../../core/test/helpers/receiver-server.js';

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
      definitions: { id: { type: 'integer', minimum: 0 } },
      properties: {
        properties: {
          type: 'object',
          properties: {
            n: { type: 'number' },
            id: { $ref: '#/definitions/id' },
            max: { type: 'integer', maximum: 12345678901234567000 },
            cents: { type: 'number', multipleOf: 0.01 },
            tens: { type: 'integer', multipleOf: 10 },
            // Limits inside allOf: the exact re-check covers the property's own keywords only.
            qty: { type: 'integer', allOf: [{ maximum: 10 }] },
            total: { type: 'number', minimum: 0, allOf: [{ maximum: 1000 }] },
            items: {
              type: 'array',
              items: { type: 'object', properties: { qty: { type: 'integer', exclusiveMinimum: 0 } } },
            },
          },
        },
      },
    },
  },
];

/** A signed event whose properties are written as raw JSON text (numbers exactly as given). */
const body = (properties: string) =>
  `{"version":1,"type":"track","event":"Order Completed","userId":"u1","timestamp":"2026-11-21T12:00:00.000Z","receivedAt":"2026-11-21T12:00:01.000Z","properties":${properties}}`;

async function violationsOf(properties: string): Promise<readonly PlanViolation[]> {
  const seen: (readonly PlanViolation[])[] = [];
  srv = await serveReceiver({
    secret: SECRET,
    bigNumbers: 'string',
    trackingPlan: compileTrackingPlan(PLAN),
    on: { track: (_msg, ctx) => void seen.push(ctx.violations) },
  });
  expect((await send(srv.url, body(properties))).status).toBe(200);
  await srv.receiver.drain();
  await srv.close();
  srv = undefined;
  return seen[0]!;
}

describe("bigNumbers: 'string' with a tracking plan", () => {
  it('a number kept as exact digits is the number the plan asks for: no false violation', async () => {
    expect(
      await violationsOf(
        '{"n":12345678901234567890123,"id":98765432109876543210,"max":12345678901234567000,"cents":12345678901234567.25,' +
          '"tens":123456789012345678900,"items":[{"qty":90071992547409931}],"big":1e400}',
      ),
    ).toEqual([]);
  });

  it('limits compare exactly where a double would round, and integer means a whole number', async () => {
    const found = await violationsOf(
      '{"max":12345678901234567001,"tens":123456789012345678901,"id":-98765432109876543210,' +
        '"cents":12345678901234567.255,"items":[{"qty":-90071992547409931}]}',
    );
    expect(found.map((v) => `${v.path} ${v.keyword}: ${v.message}`).sort()).toEqual([
      'properties.cents multipleOf: must be multiple of 0.01',
      'properties.id minimum: must be >= 0',
      'properties.items.0.qty exclusiveMinimum: must be > 0',
      'properties.max maximum: must be <= 12345678901234567000',
      'properties.tens multipleOf: must be multiple of 10',
    ]);
    const fractional = await violationsOf('{"id":12345678901234567890.5}');
    expect(fractional.map((v) => `${v.path} ${v.keyword}: ${v.message}`)).toEqual([
      'properties.id type: must be integer (got number)',
    ]);
  });

  it('each event of an Actions batch has its own exact numbers checked as numbers', async () => {
    const seen: string[][] = [];
    srv = await serveReceiver({
      secret: SECRET,
      destination: 'actions',
      insecureAcceptBatches: true,
      bigNumbers: 'string',
      trackingPlan: compileTrackingPlan(PLAN),
      on: {
        track: (_event: unknown, ctx: HandlerContext) =>
          void seen.push(ctx.violations.map((v) => `${v.path} ${v.keyword}`)),
      },
    } as unknown as ReceiverOptions);
    const event = (properties: string, id: string) =>
      `{"type":"track","event":"Order Completed","userId":"u1","messageId":"${id}","timestamp":"2026-11-21T12:00:00.000Z","receivedAt":"2026-11-21T12:00:01.000Z","properties":${properties}}`;
    const raw = `[${event('{"n":12345678901234567890123}', 'm1')},${event('{"n":98765432109876543210987,"max":12345678901234567001}', 'm2')}]`;
    // Segment signs the first event as it serialises it (a double where JSON reads one).
    const first = JSON.stringify((JSON.parse(raw) as unknown[])[0]);
    const answer = await send(srv.url, raw, { signature: hmac(first) });
    expect(answer.status).toBe(200);
    await srv.receiver.drain();
    expect(seen).toEqual([[], ['properties.max maximum']]);
  });

  it('a limit inside allOf is still reported for a number kept as exact digits', async () => {
    const found = await violationsOf('{"qty":12345678901234567890123,"total":98765432109876543210}');
    expect(found.map((v) => `${v.path} ${v.keyword}: ${v.message}`).sort()).toEqual([
      'properties.qty maximum: must be <= 10',
      'properties.total maximum: must be <= 1000',
    ]);
  });

  it('plan.check takes the exact numbers directly too; without them, a string is a string', () => {
    const plan = compileTrackingPlan(PLAN);
    const message = { type: 'track', event: 'Order Completed', properties: { n: '12345678901234567890123' } };
    expect(plan.check(message).violations.map((v) => v.message)).toEqual(['must be number (got string)']);
    expect(plan.check(message, [{ at: ['properties', 'n'], text: '12345678901234567890123' }]).violations).toEqual([]);
  });

  it('compares decimals exactly, and never builds a number from a huge exponent', () => {
    const d = (t: string) => parseDecimal(t)!;
    expect(compareDecimal(d('12345678901234567891'), d('12345678901234567890'))).toBe(1);
    expect(compareDecimal(d('-1e999999999'), d('-2'))).toBe(-1);
    expect(compareDecimal(d('0.000'), d('-0'))).toBe(0);
    expect(compareDecimal(d('1.50'), d('15e-1'))).toBe(0);
    expect(isMultipleOfDecimal(d('1e999999999'), d('0.01'))).toBe(true);
    expect(isMultipleOfDecimal(d('7e999999999'), d('3'))).toBe(false);
    expect(isMultipleOfDecimal(d('1e-999999999'), d('1'))).toBe(false);
  });
});
