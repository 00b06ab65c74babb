// A tracking plan in enqueue mode, with a real redis-server and BullMQ: the receiver stores the verified
// message; the worker checks each job against its own `trackingPlan` before the handler runs, as a
// receiver does (ctx.violations, ctx.planned, on.track keyed by event name, onViolation instead), for
// classic jobs and for whole Segment events from a Webhooks (Actions) receiver (not mapped payloads).
import { readFileSync } from 'node:fs';
import { Queue } from 'bullmq';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createReceiver, fixture, toNodeListener, type PlanViolation, type TypedTrackingPlan } from '@hookgate/core';
import { startHttpServer } from '../../../test/helpers/servers.js';
import { segmentEvent, segmentSendEvent } from '../../../test/helpers/segment-actions-sender.js';
import { createWorker, enqueueTo, type HandoffJobData, type JobContext } from '../src/index.js';
import { SECRET, post } from './support/processes.js';
import { redisSuite } from './support/redis-suite.js';

const plan: unknown = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/tracking-plans/public-api-rules.json', import.meta.url), 'utf8'),
);

const suite = redisSuite();
const closers = suite.closers;
let n = 0;
function newQueue(): Queue<HandoffJobData> {
  const queue = new Queue<HandoffJobData>(`plan-${process.pid}-${++n}`, {
    connection: { host: '127.0.0.1', port: suite.redis.port },
  });
  closers.push(() => queue.close());
  return queue;
}
const connection = () => ({ host: '127.0.0.1', port: suite.redis.port });

async function enqueueingServer(queue: Queue<HandoffJobData>, destination?: 'actions'): Promise<string> {
  const receiver =
    destination === 'actions'
      ? createReceiver({ destination, secret: SECRET, enqueue: enqueueTo(queue) })
      : createReceiver({ secret: SECRET, enqueue: enqueueTo(queue) });
  const server = await startHttpServer(toNodeListener(receiver));
  closers.push(() => server.close());
  return server.url;
}

describe('createWorker with trackingPlan', () => {
  it('gives handlers ctx.violations and ctx.planned, dispatches keyed on.track, runs onViolation instead', async () => {
    const queue = newQueue();
    const url = await enqueueingServer(queue);
    const calls: string[] = [];
    const worker = createWorker(queue.name, {
      connection: connection(),
      trackingPlan: plan,
      on: {
        track: {
          'Order Completed': (msg, ctx) =>
            void calls.push(`order:${String(msg.properties?.order_id)}:${ctx.planned}:${ctx.violations.length}`),
          '*': (msg, ctx) => void calls.push(`other:${msg.event}:${ctx.planned}`),
        },
        identify: (_msg, ctx) => void calls.push(`identify:${ctx.violations.map((v) => v.path).join()}`),
      },
      onViolation: (msg, violations, ctx) =>
        void calls.push(
          `violation:${msg.type}:${violations.map((v: PlanViolation) => v.path).join()}:${ctx.dedupeKey}`,
        ),
    });
    closers.push(() => worker.close());
    const messages = [
      fixture('track', { messageId: 'p-good', event: 'Order Completed', properties: { order_id: 'o1', total: 12 } }),
      fixture('track', { messageId: 'p-bad', event: 'Order Completed', properties: { order_id: 'o2', total: '12' } }),
      fixture('track', { messageId: 'p-other', event: 'Coupon Applied' }),
      fixture('identify', { messageId: 'p-id', traits: { email: 'ada@example.com' } }),
    ];
    for (const m of messages) expect((await post(url, JSON.stringify(m))).status).toBe(200);
    await expect.poll(() => calls.length, { timeout: 10_000 }).toBe(4);
    expect(calls.sort()).toEqual(
      [
        'order:o1:true:0',
        'violation:track:properties.total:id:p-bad',
        'other:Coupon Applied:false',
        'identify:',
      ].sort(),
    );
  });

  it('checks whole Segment events from an Actions receiver; mapped payloads (onPayload) are not checked', async () => {
    const queue = newQueue();
    const url = await enqueueingServer(queue, 'actions');
    const calls: string[] = [];
    const worker = createWorker(queue.name, {
      destination: 'actions',
      connection: connection(),
      trackingPlan: plan,
      on: { track: (event, ctx) => void calls.push(`event:${event.event}:${ctx.planned}:${ctx.violations.length}`) },
      onPayload: (_payload, ctx) => void calls.push(`payload:${ctx.planned}:${ctx.violations.length}`),
    });
    closers.push(() => worker.close());
    const order = segmentEvent('track', { properties: { order_id: 'o1', total: '42.5' } });
    expect((await segmentSendEvent(order, { url, method: 'PUT' }, SECRET)).ok).toBe(true);
    const mapped = { url, method: 'PUT' as const, data: { order: { '@path': '$.properties.order_id' } } };
    expect((await segmentSendEvent(segmentEvent('track'), mapped, SECRET)).ok).toBe(true);
    await expect.poll(() => calls.length, { timeout: 10_000 }).toBe(2);
    expect(calls.sort()).toEqual(['event:Order Completed:true:1', 'payload:false:0']);
  });

  it('flags a job whose plan check throws and runs onViolation; the job completes, not retried alike', async () => {
    // A $id inside a subschema leaves its $ref unresolved: the validator throws at the first message (issue 44).
    const throwing = [
      {
        type: 'TRACK',
        key: 'Scoped',
        version: 1,
        jsonSchema: {
          definitions: { d: { type: 'string' } },
          properties: { properties: { $id: 'http://example.com/p', properties: { a: { $ref: '#/definitions/d' } } } },
        },
      },
    ];
    const queue = newQueue();
    const url = await enqueueingServer(queue);
    const seen: string[] = [];
    const worker = createWorker(queue.name, {
      connection: connection(),
      trackingPlan: throwing,
      on: { track: () => void seen.push('handler') },
      onViolation: (_msg, violations) => void seen.push(violations.map((v) => `${v.keyword} ${v.message}`).join()),
    });
    closers.push(() => worker.close());
    const body = JSON.stringify(fixture('track', { messageId: 'scoped-job', event: 'Scoped', properties: { a: 'x' } }));
    expect((await post(url, body)).status).toBe(200);
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(1);
    expect(seen[0]).toMatch(/^planCheckFailed the tracking plan check failed \(.+\); the message was not checked$/s);
    await expect
      .poll(async () => (await queue.getJobCounts('completed', 'failed')).completed, { timeout: 10_000 })
      .toBe(1);
    const job = (await queue.getJobs(['completed']))[0]!;
    expect([job.attemptsMade, job.failedReason]).toEqual([1, undefined]);
  });

  it('types keyed handlers by a typed plan (checked by tsc: an unused @ts-expect-error fails it)', () => {
    interface Shapes {
      track: { 'Order Completed': { properties: { order_id: string; total?: number } } };
      identify: object;
      group: object;
      page: object;
      screen: object;
    }
    const typed = plan as TypedTrackingPlan<Shapes>;
    const make = () =>
      createWorker('typed', {
        connection: connection(),
        trackingPlan: typed,
        on: {
          track: {
            'Order Completed': (msg, ctx) => {
              expectTypeOf(msg.properties.order_id).toEqualTypeOf<string>();
              expectTypeOf(ctx).toEqualTypeOf<JobContext>();
            },
          },
        },
      });
    const misspelt = () =>
      createWorker('typed', {
        connection: connection(),
        trackingPlan: typed,
        // @ts-expect-error -- 'Order Complete' is not an event of the plan
        on: { track: { 'Order Complete': () => {} } },
      });
    expect(typeof misspelt).toBe('function');
    expect(typeof make).toBe('function');
  });

  it('fails at start like a receiver: an unknown event with a did-you-mean; a plan on an enqueueing receiver', () => {
    expect(() =>
      createWorker('q', {
        connection: connection(),
        trackingPlan: plan,
        on: { track: { 'Order Complete': () => {} } },
      }),
    ).toThrow(/createWorker\(\): on\.track has a handler for "Order Complete".*did you mean "Order Completed"\?/);
    expect(() => createWorker('q', { connection: connection(), on: { track: { '*': () => {} } } })).toThrow(
      /keyed by event name, which needs the tracking plan/,
    );
    expect(() => createReceiver({ secret: SECRET, trackingPlan: plan, enqueue: () => undefined })).toThrow(
      /trackingPlan with enqueue: .* createWorker\(queueName, \{ connection, trackingPlan, on \}\)/,
    );
  });
});
