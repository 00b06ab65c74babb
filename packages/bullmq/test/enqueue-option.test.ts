// The `enqueue` option on core and every adapter, over real HTTP, with a real Redis and BullMQ queue;
// and the worker's retries and failed set.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { Queue, QueueEvents } from 'bullmq';
import { describe, expect, it } from 'vitest';
import {
  createReceiver,
  sign,
  toNodeListener,
  type EnqueueHandoff,
  type Handoff,
  type ReceiverOptions,
} from '@hookgate/core';
import { hookgate as expressHookgate } from '@hookgate/express';
import { hookgate as fastifyHookgate } from '@hookgate/fastify';
import { hookgate as honoHookgate } from '@hookgate/hono';
import { listenOnLoopback, startHttpServer } from '../../../test/helpers/servers.js';
import fc from 'fast-check';
import { createWorker, dedupeKeyOf, enqueueTo, jobIdOf, type HandoffJobData, type JobContext } from '../src/index.js';
import { SECRET, post, trackMessage } from './support/processes.js';
import { redisSuite } from './support/redis-suite.js';

type Options = Omit<ReceiverOptions, 'on' | 'onMessage'>;
interface Served {
  url: string;
  close(): Promise<void>;
}

/** Each way of mounting a receiver, served on 127.0.0.1:0 with the given options. */
const SETUPS: Array<{ name: string; start(options: Options): Promise<Served> }> = [
  {
    name: "core's node listener",
    start: async (options) => startHttpServer(toNodeListener(createReceiver(options))),
  },
  {
    name: "core's fetch handler",
    start: async (options) =>
      listenOnLoopback(createAdaptorServer({ fetch: createReceiver(options).fetch, hostname: '127.0.0.1' }) as Server),
  },
  {
    name: 'express',
    start: async (options) => {
      const app = express();
      app.post('/', expressHookgate(options));
      return startHttpServer(app);
    },
  },
  {
    name: 'fastify plugin',
    start: async (options) => {
      const app = Fastify();
      await app.register(fastifyHookgate, { ...options, path: '/' });
      await app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = app.server.address() as AddressInfo;
      return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
    },
  },
  {
    name: 'hono on node',
    start: async (options) => {
      const app = new Hono();
      app.post('/', honoHookgate(options));
      return listenOnLoopback(createAdaptorServer({ fetch: app.fetch, hostname: '127.0.0.1' }) as Server);
    },
  },
];

const suite = redisSuite();
const closers = suite.closers;
let n = 0;
function newQueue(): Queue<HandoffJobData> {
  const queue = new Queue<HandoffJobData>(`enq-${process.pid}-${++n}`, {
    connection: { host: '127.0.0.1', port: suite.redis.port },
  });
  closers.push(() => queue.close());
  return queue;
}

describe.each(SETUPS)('enqueue: enqueueTo(queue) on $name', (setup) => {
  it('answers 200 once the job is stored (job id = dedupe key); a retry makes no second job; a forgery makes none', async () => {
    const queue = newQueue();
    const server = await setup.start({ secret: SECRET, enqueue: enqueueTo(queue, { includeSignedBody: true }) });
    closers.push(() => server.close());
    const body = JSON.stringify(trackMessage('adapter-1'));
    const first = await post(`${server.url}/`, body);
    expect([first.status, first.code]).toEqual([200, 'ok']);
    const job = await queue.getJob(jobIdOf('id:adapter-1'));
    expect(job?.name).toBe('track');
    expect(job?.data.message).toEqual(JSON.parse(body));
    expect(dedupeKeyOf(job!.id!)).toBe('id:adapter-1');
    expect(job?.data.signedBody).toBe(body);
    // The usual verification (exact bytes, first secret) and the classic destination are not stored again.
    expect(Object.keys(job!.data).sort()).toEqual(['message', 'signedBody']);
    expect(JSON.stringify(job?.data)).not.toContain(SECRET);

    expect((await post(`${server.url}/`, body)).status).toBe(200); // the sender's retry
    const forgedBody = JSON.stringify(trackMessage('forged'));
    const forged = await post(`${server.url}/`, forgedBody, 5000, sign(forgedBody, 'not-the-secret'));
    expect(forged.status).toBe(401);
    expect(await queue.count()).toBe(1);
  });
});

describe('enqueue mode in core', () => {
  it('503 queue_unavailable when enqueue throws, and the claim of a given store is released so the retry is stored', async () => {
    let failing = true;
    const stored: Handoff[] = [];
    const errors: string[] = [];
    const enqueue: EnqueueHandoff = async (handoff) => {
      if (failing) throw new Error('queue down');
      stored.push(handoff);
    };
    const receiver = createReceiver({
      secret: SECRET,
      enqueue,
      dedupe: {},
      onError: (e, info) => errors.push(`${info.phase}:${(e as Error).message}`),
    });
    expect(receiver.mode).toBe('enqueue');
    const server = await startHttpServer(toNodeListener(receiver));
    closers.push(() => server.close());
    const body = JSON.stringify(trackMessage('flaky'));
    expect(await post(server.url, body)).toMatchObject({ status: 503, code: 'queue_unavailable' });
    expect(errors).toEqual(['enqueue:queue down']);
    failing = false;
    expect(await post(server.url, body)).toMatchObject({ status: 200, code: 'ok' });
    expect(await post(server.url, body)).toMatchObject({ status: 200, code: 'duplicate' });
    expect(stored.map((h) => h.dedupeKey)).toEqual(['id:flaky']);
  });

  it('without a store, every delivery reaches enqueue with its dedupe key (the queue is the dedupe)', async () => {
    const keys: string[] = [];
    const receiver = createReceiver({ secret: SECRET, enqueue: (h) => void keys.push(h.dedupeKey) });
    const server = await startHttpServer(toNodeListener(receiver));
    closers.push(() => server.close());
    const body = JSON.stringify(trackMessage('keyed'));
    expect(await post(server.url, body)).toMatchObject({ status: 200, code: 'ok' });
    expect(await post(server.url, body)).toMatchObject({ status: 200, code: 'ok' });
    const { messageId: _drop, ...noId } = JSON.parse(body) as Record<string, unknown>;
    const unkeyed = JSON.stringify(noId);
    expect(await post(server.url, unkeyed)).toMatchObject({ status: 200, code: 'ok' });
    expect(keys.slice(0, 2)).toEqual(['id:keyed', 'id:keyed']);
    expect(keys[2]).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('503 at the deadline when enqueue hangs, the signal fires, and the retry is taken again', async () => {
    let hang = true;
    let aborted = false;
    const enqueue: EnqueueHandoff = (handoff) => {
      if (!hang) return undefined;
      handoff.signal.addEventListener('abort', () => (aborted = true));
      return new Promise(() => undefined);
    };
    const receiver = createReceiver({ secret: SECRET, enqueue, deadlineMs: 300, onError: () => undefined });
    const server = await startHttpServer(toNodeListener(receiver));
    closers.push(() => server.close());
    const body = JSON.stringify(trackMessage('slow'));
    const answer = await post(server.url, body);
    expect(answer).toMatchObject({ status: 503, code: 'queue_unavailable' });
    expect(answer.ms).toBeLessThan(300 + 1000);
    expect(aborted).toBe(true);
    hang = false;
    expect((await post(server.url, body)).status).toBe(200);
  });

  it('refuses enqueue with handlers or acknowledge mode, naming the fix', () => {
    const enqueue: EnqueueHandoff = () => undefined;
    expect(() => createReceiver({ secret: SECRET, enqueue, onMessage: () => undefined })).toThrow(
      /remove them and give the handlers to your worker/,
    );
    expect(() => createReceiver({ secret: SECRET, enqueue, mode: 'acknowledge' })).toThrow(
      /remove mode: 'acknowledge'/,
    );
    expect(() => createReceiver({ secret: SECRET, enqueue: 'queue' as never })).toThrow(/enqueue must be a function/);
    expect(() => enqueueTo({} as never)).toThrow(/needs a BullMQ Queue/);
    expect(() => createWorker('q', { on: { track: () => undefined } } as never)).toThrow(/connection is required/);
    expect(() => createWorker('q', { connection: {} })).toThrow(/give handlers/);
    expect(() => createWorker('q', { connection: {}, on: { trak: () => undefined } as never })).toThrow(
      /on\.trak is not a message type/,
    );
  });
});

describe('the job', () => {
  it('holds only the message (and what differs from the usual); the worker reads the key, time and verification back', async () => {
    const queue = newQueue();
    const receiver = createReceiver({ secret: ['rotated-in', SECRET], enqueue: enqueueTo(queue) });
    const server = await startHttpServer(toNodeListener(receiver));
    closers.push(() => server.close());
    const before = Date.now();
    const usual = JSON.stringify(trackMessage('usual'));
    expect((await post(server.url, usual, 5000, sign(usual, 'rotated-in'))).status).toBe(200);
    const second = JSON.stringify(trackMessage('second:secret%3A'));
    expect((await post(server.url, second)).status).toBe(200);
    const after = Date.now();
    const usualJob = await queue.getJob(jobIdOf('id:usual'));
    expect(usualJob?.data).toEqual({ message: JSON.parse(usual) });
    const secondJob = await queue.getJob(jobIdOf('id:second:secret%3A'));
    expect(secondJob?.data).toEqual({ message: JSON.parse(second), verification: { form: 'raw', secretIndex: 1 } });

    const seen = new Map<string, JobContext>();
    const worker = createWorker(queue.name, {
      connection: { host: '127.0.0.1', port: suite.redis.port },
      onMessage: (_msg, ctx) => void seen.set(ctx.dedupeKey, ctx),
    });
    closers.push(() => worker.close());
    await expect.poll(() => seen.size, { timeout: 10_000 }).toBe(2);
    expect(seen.get('id:usual')?.verification).toEqual({ form: 'raw', secretIndex: 0 });
    expect(seen.get('id:second:secret%3A')?.verification).toEqual({ form: 'raw', secretIndex: 1 });
    for (const ctx of seen.values()) {
      expect(ctx.receivedAt.getTime()).toBeGreaterThanOrEqual(before);
      expect(ctx.receivedAt.getTime()).toBeLessThanOrEqual(after);
      expect(ctx.signedBody).toBeUndefined();
    }
  });

  it('a number JSON parsing changes: the job keeps its path (and with bigNumbers: string its digits); the worker reads both', async () => {
    const queue = newQueue();
    const receiver = createReceiver({ secret: SECRET, bigNumbers: 'string', enqueue: enqueueTo(queue) });
    const server = await startHttpServer(toNodeListener(receiver));
    closers.push(() => server.close());
    const text = `${JSON.stringify(trackMessage('big-number')).slice(0, -1)},"orderId":12345678901234567890}`;
    expect((await post(server.url, text)).status).toBe(200);
    const job = await queue.getJob(jobIdOf('id:big-number'));
    expect(job?.data.lossyNumbers).toEqual(['orderId']);
    expect((job!.data.message as unknown as { orderId: unknown }).orderId).toBe('12345678901234567890');

    const seen: Array<{ orderId: unknown; lossyNumbers: readonly string[] }> = [];
    const worker = createWorker(queue.name, {
      connection: { host: '127.0.0.1', port: suite.redis.port },
      onMessage: (msg, ctx) =>
        void seen.push({ orderId: (msg as unknown as { orderId: unknown }).orderId, lossyNumbers: ctx.lossyNumbers }),
    });
    closers.push(() => worker.close());
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(1);
    expect(seen[0]).toEqual({ orderId: '12345678901234567890', lossyNumbers: ['orderId'] });
  });

  it('jobIdOf and dedupeKeyOf: one key, one id, read back exactly (any text, `%` and `:` included)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('%', ':', '3', 'A', '2', '5', 'a', 'é') }),
        fc.string(),
        (tricky, any) => {
          for (const key of [tricky, any, `id:${tricky}`, `sha256:${any}`]) {
            const id = jobIdOf(key);
            expect(id).not.toContain(':');
            expect(dedupeKeyOf(id)).toBe(key);
          }
          if (tricky !== any) expect(jobIdOf(tricky)).not.toBe(jobIdOf(any));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('createWorker', () => {
  it('runs typed handlers with the dedupe key; a throwing handler is retried, and one that keeps failing ends in the failed set with its error', async () => {
    const queue = newQueue();
    const events = new QueueEvents(queue.name, { connection: { host: '127.0.0.1', port: suite.redis.port } });
    closers.push(() => events.close());
    await events.waitUntilReady();
    const receiver = createReceiver({
      secret: SECRET,
      enqueue: enqueueTo(queue, { jobOptions: { attempts: 3, backoff: { type: 'fixed', delay: 20 } } }),
    });
    const server = await startHttpServer(toNodeListener(receiver));
    closers.push(() => server.close());

    const runs: string[] = [];
    const worker = createWorker(queue.name, {
      connection: { host: '127.0.0.1', port: suite.redis.port },
      on: {
        track: async (msg, ctx) => {
          runs.push(`${ctx.dedupeKey}#${ctx.attempt}:${msg.event}`);
          if (ctx.dedupeKey === 'id:flaky' && ctx.attempt < 2) throw new Error('downstream timeout');
          if (ctx.dedupeKey === 'id:broken') throw new Error('always broken');
        },
      },
    });
    closers.push(() => worker.close());
    const finished = (id: string, what: 'completed' | 'failed') =>
      new Promise<void>((resolve) => {
        const check = ({ jobId }: { jobId: string }) => {
          if (jobId === jobIdOf(id)) resolve();
        };
        events.on(what, check);
      });
    const flakyDone = finished('id:flaky', 'completed');
    const brokenFailed = new Promise<void>((resolve, reject) => {
      events.on('failed', ({ jobId }) => {
        if (jobId !== jobIdOf('id:broken')) return;
        queue.getJob(jobId).then((job) => {
          if (job?.finishedOn) resolve();
        }, reject);
      });
    });
    expect((await post(server.url, JSON.stringify(trackMessage('flaky')))).status).toBe(200);
    expect((await post(server.url, JSON.stringify(trackMessage('broken')))).status).toBe(200);
    await flakyDone;
    await brokenFailed;
    const event = trackMessage('x').event;
    expect(runs.filter((r) => r.startsWith('id:flaky'))).toEqual([`id:flaky#1:${event}`, `id:flaky#2:${event}`]);
    expect(runs.filter((r) => r.startsWith('id:broken'))).toHaveLength(3);
    const failed = await queue.getFailed();
    expect(failed.map((j) => [j.id, j.failedReason, j.attemptsMade])).toEqual([
      [jobIdOf('id:broken'), 'always broken', 3],
    ]);
    // Re-runnable from the failed set.
    expect(await (await queue.getJob(jobIdOf('id:flaky')))?.getState()).toBe('completed');
  });
});
