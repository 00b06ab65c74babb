// A receiver with a tracking plan, over a real node:http server: ctx.violations and ctx.planned reach the
// handlers, on.track keyed by event name, onViolation instead of the handler, start-up errors with a
// did-you-mean, and the status table unchanged (a verified message is never refused for its properties).
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createReceiver,
  fixture,
  UnknownOptionError,
  type HandlerContext,
  type PlanViolation,
  type ReceiverOptions,
} from '../src/index.js';
import { SECRET, send, serveReceiver, type ServedReceiver } from './helpers/receiver-server.js';
import { segmentEvent, segmentSendBatch, segmentSendEvent } from '../../../test/helpers/segment-actions-sender.js';
import { compileTrackingPlan } from '@hookgate/plans';

const plan = compileTrackingPlan(
  JSON.parse(
    readFileSync(new URL('../../../test/fixtures/tracking-plans/public-api-rules.json', import.meta.url), 'utf8'),
  ),
);

let srv: ServedReceiver | undefined;
afterEach(async () => {
  await srv?.receiver.drain();
  await srv?.close();
  srv = undefined;
});

const good = fixture('track', { event: 'Order Completed', properties: { order_id: 'o1', total: 12 } });
const bad = fixture('track', { event: 'Order Completed', properties: { order_id: 'o2', total: '12' } });
const unplanned = fixture('track', { event: 'Coupon Applied', properties: { code: 'X' } });

describe('a receiver with a tracking plan', () => {
  it('gives every handler ctx.violations and ctx.planned, and still runs it (200) for a violating message', async () => {
    const seen: { event: string; planned: boolean; violations: readonly PlanViolation[] }[] = [];
    srv = await serveReceiver({
      secret: SECRET,
      trackingPlan: plan,
      on: {
        track: (msg, ctx) => void seen.push({ event: msg.event, planned: ctx.planned, violations: ctx.violations }),
      },
    });
    for (const m of [good, bad, unplanned]) expect((await send(srv.url, m)).json).toMatchObject({ code: 'ok' });
    expect(seen).toEqual([
      { event: 'Order Completed', planned: true, violations: [] },
      {
        event: 'Order Completed',
        planned: true,
        violations: [
          {
            path: 'properties.total',
            message: 'must be number (got string)',
            keyword: 'type',
            rule: 'TRACK "Order Completed" v1',
          },
        ],
      },
      { event: 'Coupon Applied', planned: false, violations: [] },
    ]);
  });

  it('dispatches on.track keyed by event name, with * for the rest; identify is checked against its rule', async () => {
    const calls: string[] = [];
    srv = await serveReceiver({
      secret: SECRET,
      trackingPlan: plan,
      on: {
        track: {
          'Order Completed': (msg) => void calls.push(`order:${String(msg.properties?.order_id)}`),
          '*': (msg, ctx) => void calls.push(`other:${msg.event}:${ctx.planned}`),
        },
        identify: (msg, ctx) => void calls.push(`identify:${ctx.violations.map((v) => v.path).join()}`),
      },
    });
    await send(srv.url, good);
    await send(srv.url, unplanned);
    await send(srv.url, fixture('track', { event: 'Signed Up', properties: { plan: 'pro' } }));
    await send(srv.url, fixture('identify', { traits: { name: 'Ada' } }));
    expect(calls).toEqual(['order:o1', 'other:Coupon Applied:false', 'other:Signed Up:true', 'identify:traits.email']);
  });

  it('onViolation runs instead of the handler; its failure is the handler’s (500, retried)', async () => {
    const calls: string[] = [];
    let fail = false;
    srv = await serveReceiver({
      secret: SECRET,
      trackingPlan: plan,
      on: { track: (msg) => void calls.push(`handler:${msg.properties?.order_id as string}`) },
      onViolation: (msg, violations) => {
        if (fail) throw new Error('violation sink down');
        calls.push(`violation:${String(msg.type)}:${violations[0]?.path}`);
      },
      onError: () => {},
    });
    expect((await send(srv.url, good)).json.code).toBe('ok');
    expect((await send(srv.url, bad)).json.code).toBe('ok');
    fail = true;
    const failed = await send(srv.url, { ...bad, messageId: 'm-violating-2' });
    expect(failed.status).toBe(500);
    expect(calls).toEqual(['handler:o1', 'violation:track:properties.total']);
  });

  it('answers exactly as without a plan: signature and body checks come first, nothing is refused for its properties', async () => {
    srv = await serveReceiver({ secret: SECRET, trackingPlan: plan, on: { track: () => {} } });
    expect((await send(srv.url, bad, { secret: 'wrong' })).status).toBe(401);
    expect((await send(srv.url, { type: 'track' })).status).toBe(400);
    const answer = await send(srv.url, { ...bad, messageId: 'm-bad-1' });
    expect(answer.status).toBe(200);
    expect(answer.json).not.toHaveProperty('violations');
  });

  it('fails at start for a handler keyed by an event the plan does not have, with a did-you-mean', () => {
    let error: unknown;
    try {
      createReceiver({
        secret: SECRET,
        trackingPlan: plan,
        on: { track: { 'Order Complete': () => {} } },
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnknownOptionError);
    expect(error).toMatchObject({ option: 'on.track.Order Complete', suggestion: 'on.track.Order Completed' });
    expect((error as Error).message).toMatch(/did you mean "Order Completed"\?/);
  });

  it('fails at start for a malformed plan, keyed handlers without a plan, onViolation without a plan', () => {
    expect(() =>
      createReceiver({
        secret: SECRET,
        trackingPlan: compileTrackingPlan({ rules: [{ type: 'TRACK', jsonSchema: {} }] }),
      }),
    ).toThrow(/rules\[0\] \(TRACK\): a TRACK rule needs its event name/);
    expect(() => createReceiver({ secret: SECRET, on: { track: { '*': () => {} } } })).toThrow(
      /keyed by event name, which needs the tracking plan/,
    );
    expect(() => createReceiver({ secret: SECRET, onViolation: () => {} })).toThrow(/pass trackingPlan too/);
  });

  it.each([
    [
      'its JSON as read',
      () =>
        JSON.parse(
          readFileSync(new URL('../../../test/fixtures/tracking-plans/public-api-rules.json', import.meta.url), 'utf8'),
        ),
    ],
    ['a bare list of rules', () => [{ type: 'TRACK', key: 'Signed Up', jsonSchema: {} }]],
    [
      'an object that only looks compiled',
      () => ({ rules: [], eventNames: [], check: () => ({ planned: false, violations: [] }) }),
    ],
  ])('a plan not compiled (%s) fails at start with a TypeError naming the package and the call', (_name, raw) => {
    let error: unknown;
    try {
      createReceiver({ secret: SECRET, trackingPlan: raw() });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(
      /^createReceiver\(\): trackingPlan must be a compiled plan\. Add the package @hookgate\/plans .*trackingPlan: compileTrackingPlan\(plan\), with import \{ compileTrackingPlan \} from '@hookgate\/plans'/,
    );
  });

  it('without a plan, ctx.violations is empty and ctx.planned false', async () => {
    let seen: unknown;
    srv = await serveReceiver({ secret: SECRET, onMessage: (_m, ctx) => void (seen = [ctx.violations, ctx.planned]) });
    await send(srv.url, good);
    expect(seen).toEqual([[], false]);
  });

  it("checks whole Segment events with destination: 'actions' (keyed track handlers, ctx.violations)", async () => {
    const calls: string[] = [];
    srv = await serveReceiver({
      destination: 'actions',
      secret: SECRET,
      trackingPlan: plan,
      on: {
        track: {
          'Order Completed': (_e: unknown, ctx: HandlerContext) =>
            void calls.push(`order:${ctx.violations.map((v) => v.path).join()}`),
          '*': (e: { event?: unknown }, ctx: HandlerContext) =>
            void calls.push(`other:${String(e.event)}:${ctx.planned}`),
        },
        identify: (_e: unknown, ctx: HandlerContext) => void calls.push(`identify:${ctx.violations.length}`),
      },
    } as unknown as ReceiverOptions);
    const order = segmentEvent('track', { properties: { order_id: 'o1', total: '42.5' } });
    expect((await segmentSendEvent(order, { url: srv.url, method: 'PUT' }, SECRET)).ok).toBe(true);
    const other = segmentEvent('track', { event: 'Coupon Applied' });
    expect((await segmentSendEvent(other, { url: srv.url, method: 'PUT' }, SECRET)).ok).toBe(true);
    expect((await segmentSendEvent(segmentEvent('identify'), { url: srv.url, method: 'PUT' }, SECRET)).ok).toBe(true);
    expect(calls).toEqual(['order:properties.total', 'other:Coupon Applied:false', 'identify:0']);
  });

  it('checks each element of a Webhooks (Actions) batch: its own ctx.violations, onViolation for the violating one', async () => {
    const calls: string[] = [];
    srv = await serveReceiver({
      destination: 'actions',
      secret: SECRET,
      insecureAcceptBatches: true,
      trackingPlan: plan,
      on: {
        track: {
          'Order Completed': (_e: unknown, ctx: HandlerContext) =>
            void calls.push(`order:${ctx.violations.length}:${ctx.planned}`),
          '*': (e: { event?: unknown }, ctx: HandlerContext) =>
            void calls.push(`other:${String(e.event)}:${ctx.planned}`),
        },
      },
      onViolation: (_e: unknown, violations: readonly PlanViolation[]) =>
        void calls.push(`violation:${violations.map((v) => v.path).join()}`),
    } as unknown as ReceiverOptions);
    const events = [
      segmentEvent('track', { properties: { order_id: 'o1', total: '42.5' } }),
      segmentEvent('track', { properties: { order_id: 'o2', total: 42.5 } }),
      segmentEvent('track', { event: 'Coupon Applied' }),
    ];
    expect((await segmentSendBatch(events, { url: srv.url }, SECRET)).ok).toBe(true);
    expect(calls).toEqual(['violation:properties.total', 'order:0:true', 'other:Coupon Applied:false']);
  });
});
