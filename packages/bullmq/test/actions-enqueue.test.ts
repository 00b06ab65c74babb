// Webhooks (Actions) through the durable handoff: receivers with `destination: 'actions'` and
// `enqueue: enqueueTo(queue)` on every set-up, driven by Segment's own destination code
// (@segment/action-destinations 3.387.0) and by the emulator's Actions sender over real HTTP, a real
// redis-server and BullMQ; workers created for Actions run typed handlers; a worker of the other
// destination fails the job naming the mismatch.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { Queue, QueueEvents, type Job } from 'bullmq';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { createReceiver, sign, toNodeListener, type SpecTrackEvent } from '@hookgate/core';
import { createEmulator } from '@hookgate/emulator';
import { hookgate as expressHookgate } from '@hookgate/express';
import { hookgateActions } from '@hookgate/fastify';
import { hookgate as honoHookgate } from '@hookgate/hono';
import { listenOnLoopback, startHttpServer } from '../../../test/helpers/servers.js';
import { segmentEvent, segmentSendBatch, segmentSendEvent } from '../../../test/helpers/segment-actions-sender.js';
import { createWorker, dedupeKeyOf, enqueueTo, jobIdOf, type HandoffJobData } from '../src/index.js';
import { SECRET, post, trackMessage } from './support/processes.js';
import { redisSuite } from './support/redis-suite.js';

interface Served {
  url: string;
  close(): Promise<void>;
}
type Enqueue = ReturnType<typeof enqueueTo>;

/** Each way of mounting an Actions receiver in enqueue mode, served on 127.0.0.1:0. */
const SETUPS: Array<{ name: string; start(enqueue: Enqueue): Promise<Served> }> = [
  {
    name: "core's node listener",
    start: async (enqueue) =>
      startHttpServer(toNodeListener(createReceiver({ destination: 'actions', secret: SECRET, enqueue }))),
  },
  {
    name: "core's fetch handler",
    start: async (enqueue) =>
      listenOnLoopback(
        createAdaptorServer({
          fetch: createReceiver({ destination: 'actions', secret: SECRET, enqueue }).fetch,
          hostname: '127.0.0.1',
        }) as Server,
      ),
  },
  {
    name: 'express',
    start: async (enqueue) => {
      const app = express();
      app.all('/', expressHookgate({ destination: 'actions', secret: SECRET, enqueue }));
      return startHttpServer(app);
    },
  },
  {
    name: 'fastify hookgateActions',
    start: async (enqueue) => {
      const app = Fastify();
      await app.register(hookgateActions, { secret: SECRET, enqueue, path: '/' });
      await app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = app.server.address() as AddressInfo;
      return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
    },
  },
  {
    name: 'hono on node',
    start: async (enqueue) => {
      const app = new Hono();
      app.on(['POST', 'PUT', 'PATCH'], '/', honoHookgate({ destination: 'actions', secret: SECRET, enqueue }));
      return listenOnLoopback(createAdaptorServer({ fetch: app.fetch, hostname: '127.0.0.1' }) as Server);
    },
  },
];

const suite = redisSuite();
const closers = suite.closers;
let n = 0;
const connection = () => ({ host: '127.0.0.1', port: suite.redis.port });
function newQueue(): Queue<HandoffJobData<unknown>> {
  const queue = new Queue<HandoffJobData<unknown>>(`actions-enq-${process.pid}-${++n}`, { connection: connection() });
  closers.push(() => queue.close());
  return queue;
}

/** Resolves when the job of `dedupeKey` completed or failed (whichever comes), with the job read back. */
async function settled(
  queue: Queue<HandoffJobData<unknown>>,
  dedupeKey: string,
  timeoutMs = 20_000,
): Promise<Job<HandoffJobData<unknown>>> {
  const id = jobIdOf(dedupeKey);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await queue.getJobState(id);
    if (state === 'completed' || state === 'failed') return (await queue.getJob(id))!;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${state} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.each(SETUPS)("destination: 'actions' with enqueueTo(queue) on $name, sent by Segment's own code", (setup) => {
  it('stores each single event as one job that records its destination; a retry makes no second job; a batch is refused with its reason', async () => {
    const queue = newQueue();
    const server = await setup.start(enqueueTo(queue, { includeSignedBody: true }));
    closers.push(() => server.close());

    const event = segmentEvent('track');
    expect(await segmentSendEvent(event, { url: `${server.url}/`, method: 'PUT' }, SECRET)).toEqual({
      ok: true,
      status: 200,
    });
    const key = `id:${String(event.messageId)}`;
    const job = await queue.getJob(jobIdOf(key));
    expect(job?.name).toBe('track');
    expect(job?.data.destination).toBe('actions');
    expect(job?.data.message).toEqual(event);
    expect(job?.data.signedBody).toBe(JSON.stringify(event));
    expect(JSON.stringify(job?.data)).not.toContain(SECRET);

    // A mapped payload (PATCH): no `type`, so the job is named `webhook`; keyed by the signed digest.
    const order = segmentEvent('track');
    const mapped = {
      url: `${server.url}/`,
      method: 'PATCH' as const,
      data: { orderId: { '@path': '$.properties.orderId' }, total: { '@path': '$.properties.total' } },
    };
    expect(await segmentSendEvent(order, mapped, SECRET)).toEqual({ ok: true, status: 200 });
    expect(await segmentSendEvent(order, mapped, SECRET)).toEqual({ ok: true, status: 200 }); // Segment's retry
    expect(await segmentSendEvent(event, { url: `${server.url}/`, method: 'PUT' }, SECRET)).toEqual({
      ok: true,
      status: 200,
    });
    const jobs = await queue.getJobs(['waiting']);
    expect(jobs).toHaveLength(2);
    const mappedJob = jobs.find((j) => j.name === 'webhook')!;
    expect(mappedJob.data).toMatchObject({
      destination: 'actions',
      message: { orderId: (order.properties as { orderId: string }).orderId, total: 42.5 },
    });
    expect(dedupeKeyOf(mappedJob.id!)).toMatch(/^sha256:[0-9a-f]{64}$/);

    // Batches: Segment's code gets a 422 (it does not retry it); the answer says why and what to do.
    const batch = await segmentSendBatch(
      [segmentEvent('track'), segmentEvent('track')],
      { url: `${server.url}/` },
      SECRET,
    );
    expect(batch.status).toBe(422);
    const body = JSON.stringify([segmentEvent('track')]);
    const refused = await fetch(`${server.url}/`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-signature': sign(body.slice(1, -1), SECRET) },
      body,
    });
    expect(refused.status).toBe(422);
    const answer = (await refused.json()) as { code: string; message: string };
    expect(answer.code).toBe('batch_refused');
    expect(answer.message).toMatch(/stores each event as its own queue job/);
    expect(answer.message).toMatch(/signed over its first event only/);
    expect(answer.message).toMatch(/Turn batching off in the mapping/);
    expect(answer.message).not.toMatch(/insecureAcceptBatches|give the receiver handlers/);
    expect(await queue.count()).toBe(2);
  });
});

describe("createWorker(queue, { destination: 'actions' })", () => {
  it('runs on.track with the whole Segment event and onPayload with the schema-parsed payload; refused payloads fail once with the field named', async () => {
    const queue = newQueue();
    const receiver = createReceiver({
      destination: 'actions',
      secret: SECRET,
      enqueue: enqueueTo(queue, { jobOptions: { attempts: 3, backoff: { type: 'fixed', delay: 20 } } }),
    });
    const server = await startHttpServer(toNodeListener(receiver));
    closers.push(() => server.close());

    const seen: Array<{ via: string; value: unknown; key: string; attempt: number }> = [];
    const order = z.object({ orderId: z.string(), total: z.coerce.number() });
    const worker = createWorker(queue.name, {
      destination: 'actions',
      connection: connection(),
      schema: order,
      on: {
        track: (event, ctx) => {
          seen.push({ via: 'on.track', value: event, key: ctx.dedupeKey, attempt: ctx.attempt });
          if (event.event === 'Flaky' && ctx.attempt < 2) throw new Error('downstream timeout');
        },
      },
      onPayload: (payload, ctx) =>
        void seen.push({ via: 'onPayload', value: payload, key: ctx.dedupeKey, attempt: ctx.attempt }),
    });
    closers.push(() => worker.close());

    const event = segmentEvent('track');
    expect(await segmentSendEvent(event, { url: server.url, method: 'PUT' }, SECRET)).toMatchObject({ ok: true });
    const done = await settled(queue, `id:${String(event.messageId)}`);
    expect(await done.getState()).toBe('completed');
    expect(seen.find((s) => s.via === 'on.track')).toEqual({
      via: 'on.track',
      value: event,
      key: `id:${String(event.messageId)}`,
      attempt: 1,
    });

    const flaky = segmentEvent('track', { event: 'Flaky' });
    expect(await segmentSendEvent(flaky, { url: server.url }, SECRET)).toMatchObject({ ok: true });
    const retried = await settled(queue, `id:${String(flaky.messageId)}`);
    expect([await retried.getState(), retried.attemptsMade]).toEqual(['completed', 2]);

    // A mapped payload: the schema's output (total coerced from the string sent) reaches onPayload.
    const withOrder = segmentEvent('track');
    const orderId = (withOrder.properties as { orderId: string }).orderId;
    withOrder.properties = { ...(withOrder.properties as object), total: '42.5' };
    const orderMapping = {
      url: server.url,
      method: 'PATCH' as const,
      data: { orderId: { '@path': '$.properties.orderId' }, total: { '@path': '$.properties.total' } },
    };
    expect(await segmentSendEvent(withOrder, orderMapping, SECRET)).toMatchObject({ ok: true });
    await expect
      .poll(() => seen.filter((s) => s.via === 'onPayload').map((s) => s.value), { timeout: 20_000 })
      .toEqual([{ orderId, total: 42.5 }]);

    // A payload the schema refuses fails for good (no retry), naming the field.
    const bad = segmentEvent('track');
    expect(
      await segmentSendEvent(bad, { url: server.url, data: { orderId: { '@path': '$.properties.total' } } }, SECRET),
    ).toMatchObject({ ok: true });
    const badJob = (await queue.getJobs(['waiting', 'active', 'completed', 'failed'])).find(
      (j) => JSON.stringify(j.data.message) === JSON.stringify({ orderId: 42.5 }),
    )!;
    const failed = await settled(queue, dedupeKeyOf(badJob.id!));
    expect([await failed.getState(), failed.attemptsMade]).toEqual(['failed', 1]);
    expect(failed.failedReason).toMatch(/does not match the worker's schema: \/orderId /);

    // A payload typed like a Segment track event but not a whole one (a mapping that kept `type`) fails naming on.track.
    const partial = segmentEvent('track');
    expect(
      await segmentSendEvent(
        partial,
        { url: server.url, data: { type: { '@path': '$.type' }, event: { '@path': '$.event' } } },
        SECRET,
      ),
    ).toMatchObject({ ok: true });
    const partialJob = (await queue.getJobs(['waiting', 'active', 'completed', 'failed'])).find(
      (j) => JSON.stringify(j.data.message) === JSON.stringify({ type: 'track', event: 'Order Completed' }),
    )!;
    const partialFailed = await settled(queue, dedupeKeyOf(partialJob.id!));
    expect([await partialFailed.getState(), partialFailed.attemptsMade]).toEqual(['failed', 1]);
    expect(partialFailed.failedReason).toMatch(/on\.track gets whole Segment track events .* use onPayload/);
  });

  it("runs the emulator's Webhooks (Actions) deliveries (whole event and mapped data) through receiver, queue and worker", async () => {
    const queue = newQueue();
    const receiver = createReceiver({ destination: 'actions', secret: SECRET, enqueue: enqueueTo(queue) });
    const server = await startHttpServer(toNodeListener(receiver));
    closers.push(() => server.close());
    const events: SpecTrackEvent[] = [];
    const payloads: Array<{ plan: string }> = [];
    const worker = createWorker(queue.name, {
      destination: 'actions',
      connection: connection(),
      schema: z.object({ plan: z.string() }),
      on: { track: (event) => void events.push(event) },
      onPayload: (payload) => void payloads.push(payload),
    });
    closers.push(() => worker.close());

    const emulator = createEmulator({
      sources: [
        {
          writeKey: 'wk',
          webhooksActions: {
            sharedSecret: SECRET,
            subscriptions: [
              {
                subscribe: 'type = "track"',
                partnerAction: 'send',
                enabled: true,
                mapping: { url: `${server.url}/`, method: 'PUT', data: { '@path': '$.' } },
              },
              {
                subscribe: 'type = "identify"',
                partnerAction: 'send',
                enabled: true,
                mapping: { url: `${server.url}/`, method: 'PATCH', data: { plan: { '@path': '$.traits.plan' } } },
              },
            ],
          },
        },
      ],
    });
    closers.push(() => emulator.close());
    const tracked = emulator.track({ userId: 'u1', event: 'Signed Up', properties: { plan: 'pro' } });
    emulator.identify({ userId: 'u1', traits: { plan: 'team' } });
    await emulator.drain();
    await expect.poll(() => [events.length, payloads.length], { timeout: 20_000 }).toEqual([1, 1]);
    expect(events[0]).toMatchObject({ type: 'track', event: 'Signed Up', userId: 'u1', properties: { plan: 'pro' } });
    expect(events[0]!.messageId).toBe((JSON.parse(tracked.body) as { messageId: string }).messageId);
    expect(payloads).toEqual([{ plan: 'team' }]);
  });
});

describe('a worker of the other destination fails the job naming the mismatch (no retry, no handler run)', () => {
  it('classic worker, Actions job; Actions worker, classic job', async () => {
    const actionsQueue = newQueue();
    const classicQueue = newQueue();
    const actionsServer = await startHttpServer(
      toNodeListener(createReceiver({ destination: 'actions', secret: SECRET, enqueue: enqueueTo(actionsQueue) })),
    );
    const classicServer = await startHttpServer(
      toNodeListener(createReceiver({ secret: SECRET, enqueue: enqueueTo(classicQueue) })),
    );
    closers.push(
      () => actionsServer.close(),
      () => classicServer.close(),
    );
    const ran: string[] = [];
    const classicWorker = createWorker(actionsQueue.name, {
      connection: connection(),
      onMessage: (msg) => void ran.push(`classic:${msg.type}`),
    });
    const actionsWorker = createWorker(classicQueue.name, {
      destination: 'actions',
      connection: connection(),
      on: { track: (e) => void ran.push(`actions:${e.type}`) },
      onPayload: () => void ran.push('actions:payload'),
    });
    closers.push(
      () => classicWorker.close(),
      () => actionsWorker.close(),
    );

    const event = segmentEvent('track');
    expect(await segmentSendEvent(event, { url: actionsServer.url, method: 'PUT' }, SECRET)).toMatchObject({
      ok: true,
    });
    const a = await settled(actionsQueue, `id:${String(event.messageId)}`);
    expect([await a.getState(), a.attemptsMade]).toEqual(['failed', 1]);
    expect(a.failedReason).toMatch(
      /came from Webhooks \(Actions\).*this worker was created for the classic Webhooks destination/,
    );
    expect(a.failedReason).toMatch(/destination: 'actions'/);

    expect((await post(classicServer.url, JSON.stringify(trackMessage('classic-1')))).status).toBe(200);
    const c = await settled(classicQueue, 'id:classic-1');
    expect([await c.getState(), c.attemptsMade]).toEqual(['failed', 1]);
    expect(c.failedReason).toMatch(
      /came from the classic Webhooks destination.*this worker was created for Webhooks \(Actions\)/,
    );
    expect(ran).toEqual([]);
  });

  it('a job in the first format (key, time and verification in its data, no destination) runs as classic with the same context', async () => {
    const queue = newQueue();
    const events = new QueueEvents(queue.name, { connection: connection() });
    closers.push(() => events.close());
    const seen: string[] = [];
    const worker = createWorker(queue.name, {
      connection: connection(),
      onMessage: (msg, ctx) =>
        void seen.push(`${msg.type} ${ctx.dedupeKey} ${ctx.verification.form}/${ctx.verification.secretIndex}`),
    });
    closers.push(() => worker.close());
    const firstFormat = {
      message: trackMessage('old-1'),
      dedupeKey: 'id:old-1',
      receivedAt: new Date().toISOString(),
      verification: { form: 'sorted', secretIndex: 1 },
    };
    await queue.add('track', firstFormat as never, { jobId: jobIdOf('id:old-1') });
    const job = await settled(queue, 'id:old-1');
    expect(await job.getState()).toBe('completed');
    expect(seen).toEqual(['track id:old-1 sorted/1']);
  });
});

describe('set-up errors name the fix', () => {
  it('refuses insecureAcceptBatches with enqueue, and mixed-up worker options', () => {
    const enqueue = enqueueTo({ add: async () => undefined } as never);
    expect(() =>
      createReceiver({ destination: 'actions', secret: SECRET, enqueue, insecureAcceptBatches: true }),
    ).toThrow(/insecureAcceptBatches cannot be used with enqueue.*Enable Batching/);
    const c = { host: '127.0.0.1', port: 1 };
    expect(() => createWorker('q', { destination: 'actions', connection: c })).toThrow(
      /give handlers in `on` \(per Segment event type\) or `onPayload`/,
    );
    expect(() =>
      createWorker('q', { destination: 'actions', connection: c, on: { delete: () => undefined } as never }),
    ).toThrow(/on\.delete is not a Segment event type/);
    expect(() =>
      createWorker('q', { destination: 'actions', connection: c, onMessage: () => undefined } as never),
    ).toThrow(/use onPayload/);
    expect(() =>
      createWorker('q', {
        destination: 'actions',
        connection: c,
        on: { track: () => undefined },
        schema: z.object({}),
      }),
    ).toThrow(/give onPayload too/);
    expect(() =>
      createWorker('q', {
        destination: 'actions',
        connection: c,
        onPayload: () => undefined,
        schema: { parse: () => 1 } as never,
      }),
    ).toThrow(/Standard Schema/);
    expect(() => createWorker('q', { connection: c, onPayload: () => undefined } as never)).toThrow(
      /onPayload is for jobs from a Webhooks \(Actions\) receiver; add destination: 'actions'/,
    );
    expect(() =>
      createWorker('q', { destination: 'action', connection: c, onMessage: () => undefined } as never),
    ).toThrow(/destination must be 'classic' \(the default\) or 'actions'/);
  });
});
