// Attacks on the slim job format (jobs hold only { message }, the worker reads the dedupe key back
// from the job id and the time from job.timestamp), over real HTTP, a real redis-server and BullMQ.
import http from 'node:http';
import { Queue, type QueueOptions } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { createReceiver, sign, toNodeListener } from '@hookgate/core';
import { startHttpServer } from '../../../test/helpers/servers.js';
import { createWorker, dedupeKeyOf, enqueueTo, jobIdOf, type HandoffJobData, type JobContext } from '../src/index.js';
import { SECRET, post, trackMessage } from './support/processes.js';
import { redisSuite } from './support/redis-suite.js';
import { createHash } from 'node:crypto';

const suite = redisSuite();
const closers = suite.closers;
let n = 0;
const connection = () => ({ host: '127.0.0.1', port: suite.redis.port });
function newQueue(options: Partial<QueueOptions> = {}): Queue<HandoffJobData> {
  const queue = new Queue<HandoffJobData>(`attack-${process.pid}-${++n}`, { ...options, connection: connection() });
  closers.push(() => queue.close());
  return queue;
}
async function serve(queue: Queue, includeSignedBody = false) {
  const server = await startHttpServer(
    toNodeListener(createReceiver({ secret: SECRET, enqueue: enqueueTo(queue, { includeSignedBody }) })),
  );
  closers.push(() => server.close());
  return server;
}
/** Runs a worker until `count` handlers ran; resolves with the contexts by message id. */
async function runWorker(queue: Queue, count: number): Promise<Map<string, { ctx: JobContext; messageId: unknown }>> {
  const seen = new Map<string, { ctx: JobContext; messageId: unknown }>();
  const worker = createWorker(queue.name, {
    connection: connection(),
    onMessage: (msg, ctx) =>
      void seen.set(String(ctx.job.id), { ctx, messageId: (msg as { messageId?: unknown }).messageId }),
  });
  closers.push(() => worker.close());
  await expect.poll(() => seen.size, { timeout: 10_000 }).toBe(count);
  await worker.close();
  return seen;
}

/** A signed POST of exact bytes. */
function postBytes(url: string, bytes: Uint8Array): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-signature': sign(bytes, SECRET),
        'content-length': bytes.byteLength,
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(bytes);
  });
}

describe('message ids that are not well-formed UTF-16', () => {
  it('two messages whose ids differ only in a lone surrogate are two jobs, and the worker reads the same key back', async () => {
    const queue = newQueue();
    const server = await serve(queue);
    // JSON escapes: the bytes are ASCII, JSON.parse makes lone surrogates (Redis would store both as U+FFFD).
    const a = JSON.stringify(trackMessage('lone-\ud800'));
    const b = JSON.stringify(trackMessage('lone-\udfff'));
    expect(a).toContain('\\ud800');
    expect((await post(server.url, a)).status).toBe(200);
    expect((await post(server.url, b)).status).toBe(200);
    expect(await queue.count()).toBe(2);
    const seen = await runWorker(queue, 2);
    for (const { ctx, messageId } of seen.values()) {
      expect(ctx.job.data.message).toMatchObject({ messageId });
      expect(jobIdOf(ctx.dedupeKey)).toBe(ctx.job.id);
    }
  });
});

describe('includeSignedBody', () => {
  it('keeps the exact signed text: a leading byte-order mark and multi-byte UTF-8 included', async () => {
    const queue = newQueue();
    const server = await serve(queue, true);
    const text = JSON.stringify(trackMessage('bom-1')).replace('"event":', '"note":"é漢😀","event":');
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from(text, 'utf8')]);
    expect(await postBytes(server.url, bytes)).toBe(200);
    const job = await queue.getJob(jobIdOf('id:bom-1'));
    expect(job?.data.signedBody).toBeDefined();
    expect(sign(job!.data.signedBody!, SECRET)).toBe(sign(bytes, SECRET));
    expect(Buffer.from(job!.data.signedBody!, 'utf8').equals(Buffer.from(bytes))).toBe(true);
  });
});

describe('message ids end to end: the worker reads back the key the receiver made', () => {
  it('`%3A`, `%25`, `:`, `%`, multi-byte text, 512 characters, and the digest of an id-less message', async () => {
    const queue = newQueue();
    const server = await serve(queue);
    const ids = ['%3A', '%25', ':', '%', '%253A', 'é漢😀', ':%'.repeat(256)];
    const bodies = ids.map((id) => JSON.stringify(trackMessage(id)));
    const { messageId: _drop, ...noId } = trackMessage('x') as unknown as Record<string, unknown>;
    const unkeyed = JSON.stringify(noId);
    for (const body of [...bodies, unkeyed]) expect((await post(server.url, body)).status).toBe(200);
    const digest = `sha256:${createHash('sha256').update(unkeyed).digest('hex')}`;
    const seen = await runWorker(queue, ids.length + 1);
    const keys = [...seen.values()].map(({ ctx }) => ctx.dedupeKey).sort();
    expect(keys).toEqual([...ids.map((id) => `id:${id}`), digest].sort());
    for (const { ctx, messageId } of seen.values()) {
      expect(jobIdOf(ctx.dedupeKey)).toBe(ctx.job.id);
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the key holds String() of whatever messageId the attack sent; that is what is compared
      if (messageId !== undefined) expect(ctx.dedupeKey).toBe(`id:${String(messageId)}`);
    }
  });

  it('concurrent deliveries of one message make one job', async () => {
    const queue = newQueue();
    const server = await serve(queue);
    const body = JSON.stringify(trackMessage('same:%3A'));
    const answers = await Promise.all(Array.from({ length: 12 }, () => post(server.url, body)));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(await queue.count()).toBe(1);
    expect(await queue.getJob(jobIdOf('id:same:%3A'))).toBeDefined();
  });
});

describe('jobs the receiver did not make in the current format', () => {
  it('jobs of the earlier format still run, with their key, verification and destination', async () => {
    const queue = newQueue();
    const message = trackMessage('old-1');
    await queue.add(
      'track',
      {
        message,
        destination: 'classic',
        dedupeKey: 'id:old-1',
        receivedAt: '2026-01-01T00:00:00.000Z',
        verification: { form: 'raw', secretIndex: 1 },
      } as HandoffJobData,
      { jobId: jobIdOf('id:old-1') },
    );
    await queue.add(
      'track',
      {
        message: trackMessage('old:2%'),
        destination: 'classic',
        dedupeKey: 'id:old:2%',
        receivedAt: 'x',
        verification: { form: 'raw', secretIndex: 0 },
      } as HandoffJobData,
      {
        jobId: jobIdOf('id:old:2%'),
      },
    );
    const seen = await runWorker(queue, 2);
    const one = seen.get(jobIdOf('id:old-1'))!.ctx;
    expect(one.dedupeKey).toBe('id:old-1');
    expect(one.verification).toEqual({ form: 'raw', secretIndex: 1 });
    expect(one.receivedAt.getTime()).toBe(one.job.timestamp);
    expect(seen.get(jobIdOf('id:old:2%'))!.ctx.dedupeKey).toBe('id:old:2%');
  });

  it('jobs other code added with any id (or none) run; the key is read from the id; a job without data fails alone', async () => {
    const queue = newQueue();
    // First in the queue (one job at a time, oldest first): it has failed before the others have run.
    await queue.add('track', null as never, { jobId: 'no-data' });
    await queue.add('track', { message: trackMessage('c1') }, { jobId: 'custom%zz' });
    await queue.add('track', { message: trackMessage('c2') }, { jobId: 'a%3Ab%25c%3a' });
    const auto = await queue.add('track', { message: trackMessage('c3') });
    const seen = await runWorker(queue, 3);
    expect(seen.get('custom%zz')!.ctx.dedupeKey).toBe('custom%zz');
    expect(seen.get('a%3Ab%25c%3a')!.ctx.dedupeKey).toBe('a:b%c%3a');
    expect(seen.get(auto.id!)!.ctx.dedupeKey).toBe(auto.id);
    for (const { ctx } of seen.values()) expect(ctx.verification).toEqual({ form: 'raw', secretIndex: 0 });
    const broken = await queue.getJob('no-data');
    expect(await broken?.getState()).toMatch(/failed|delayed/);
  });
});

describe('job options', () => {
  it("the queue's defaultJobOptions over DEFAULT_JOB_OPTIONS, jobOptions over both, the job id always the key's", async () => {
    const queue = newQueue({
      defaultJobOptions: { attempts: 2, priority: 3, removeOnComplete: true, jobId: 'fixed' } as never,
    });
    const server = await startHttpServer(
      toNodeListener(
        createReceiver({ secret: SECRET, enqueue: enqueueTo(queue, { jobOptions: { attempts: 5, removeOnFail: 7 } }) }),
      ),
    );
    closers.push(() => server.close());
    for (const id of ['o1', 'o2']) expect((await post(server.url, JSON.stringify(trackMessage(id)))).status).toBe(200);
    expect(await queue.count()).toBe(2);
    const job = await queue.getJob(jobIdOf('id:o1'));
    expect(job?.opts).toMatchObject({
      attempts: 5,
      priority: 3,
      removeOnComplete: true,
      removeOnFail: 7,
      backoff: { type: 'exponential', delay: 1000 },
    });
    expect(dedupeKeyOf(job!.id!)).toBe('id:o1');
    expect(() => enqueueTo(queue, { jobOptions: { jobId: 'x' } as never })).toThrow(/jobOptions\.jobId cannot be set/);
  });
});
