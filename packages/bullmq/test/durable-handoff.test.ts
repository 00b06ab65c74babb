// Receivers and workers in separate processes against a real redis-server: nothing acknowledged is
// lost, and each message is processed once in the normal case.
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RunningRedis } from '../../../test/helpers/redis-server.js';
import { jobIdOf } from '../src/index.js';
import {
  closeAgent,
  deliver,
  pool,
  post,
  startReceiver,
  startWorker,
  trackMessage,
  type Child,
} from './support/processes.js';

let redis: RunningRedis;
const children: Child[] = [];
const queues: Queue[] = [];
let queueCount = 0;

function newQueueName(): string {
  return `hooks-${process.pid}-${++queueCount}`;
}
function queueClient(name: string): Queue {
  const q = new Queue(name, { connection: { host: '127.0.0.1', port: redis.port } });
  queues.push(q);
  return q;
}
function track<T extends Child>(child: T): T {
  children.push(child);
  return child;
}
/** The `done` lines of some workers, counted per dedupe key. */
function doneCounts(workers: Child[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const w of workers)
    for (const l of w.lines) if (typeof l.done === 'string') counts.set(l.done, (counts.get(l.done) ?? 0) + 1);
  return counts;
}
async function until(check: () => boolean, timeoutMs: number, what: () => string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out: ${what()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await Promise.all(children.map((c) => c.kill('SIGKILL')));
  await Promise.all(queues.map((q) => q.close()));
  closeAgent();
  await redis?.stop();
});

describe('durable handoff to BullMQ (separate processes, real Redis)', () => {
  it('a receiver SIGKILLed right after answering 200: every acknowledged message is processed by a worker started later', async () => {
    const queue = newQueueName();
    const receiver = track(await startReceiver({ redisPort: redis.port, queue }));
    const ids = Array.from({ length: 300 }, (_, i) => `kill-${i}`);
    const acked = new Set<string>();
    let killed = false;
    // Kill the receiver the moment the 100th 200 arrives, with the rest still in flight.
    await pool(ids, 32, async (id) => {
      try {
        const answer = await post(receiver.url, JSON.stringify(trackMessage(id)), 5000);
        if (answer.status === 200) {
          acked.add(`id:${id}`);
          if (acked.size === 100 && !killed) {
            killed = true;
            receiver.proc.kill('SIGKILL');
          }
        }
      } catch {
        // connection reset by the kill: not acknowledged, the sender would retry
      }
    });
    expect(killed).toBe(true);
    expect(acked.size).toBeGreaterThanOrEqual(100);
    expect(acked.size).toBeLessThan(ids.length); // the kill cut some requests off

    const worker = track(await startWorker({ redisPort: redis.port, queue, name: 'late' }));
    await until(
      () => [...acked].every((k) => doneCounts([worker]).has(k)),
      20_000,
      () => `${[...acked].filter((k) => !doneCounts([worker]).has(k)).length} acknowledged messages not processed`,
    );
    for (const key of acked) expect(doneCounts([worker]).get(key)).toBe(1);
  }, 60_000);

  it('Redis down while requests arrive, the receiver SIGKILLed at its first 200: every acknowledged message is stored and processed', async () => {
    // A receiver that answered before Redis held the job would lose it here: the command waits in the
    // client's memory while Redis is down, and the kill drops it.
    const own = await startRedisServer();
    try {
      const queue = newQueueName();
      const receiver = track(await startReceiver({ redisPort: own.port, queue }));
      expect((await post(receiver.url, JSON.stringify(trackMessage('before-outage')))).status).toBe(200);
      await own.kill();
      const acked = new Set<string>();
      let killed = false;
      const sends = Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          try {
            const answer = await post(receiver.url, JSON.stringify(trackMessage(`outage-${i}`)), 6000);
            if (answer.status === 200) acked.add(`id:outage-${i}`);
            if (answer.status === 200 && !killed) {
              killed = true;
              receiver.proc.kill('SIGKILL');
            }
          } catch {
            // reset by the kill: not acknowledged
          }
        }),
      );
      await new Promise((r) => setTimeout(r, 300));
      await own.restart(); // same port, empty: only what reaches it from now on is there
      await sends;
      expect(killed).toBe(true); // some were acknowledged once Redis was back, then the receiver died
      const worker = track(await startWorker({ redisPort: own.port, queue, name: 'after-outage' }));
      await until(
        () => [...acked].every((k) => doneCounts([worker]).has(k)),
        15_000,
        () =>
          `${[...acked].filter((k) => !doneCounts([worker]).has(k)).length} of ${acked.size} acknowledged messages not processed`,
      );
      await worker.kill();
    } finally {
      await own.stop();
    }
  }, 60_000);

  it('two receivers and two workers, 5,000 messages, 10 % sent twice and 5 % to both receivers: each processed exactly once', async () => {
    const queue = newQueueName();
    const [a, b] = await Promise.all([
      startReceiver({ redisPort: redis.port, queue }),
      startReceiver({ redisPort: redis.port, queue }),
    ]);
    track(a);
    track(b);
    const workers = await Promise.all([
      startWorker({ redisPort: redis.port, queue, name: 'w1', concurrency: 50 }),
      startWorker({ redisPort: redis.port, queue, name: 'w2', concurrency: 50 }),
    ]);
    workers.forEach(track);
    const total = 5000;
    const started = performance.now();
    const statuses = new Map<number, number>();
    const count = (s: number) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
    await pool(
      Array.from({ length: total }, (_, i) => i),
      64,
      async (i) => {
        const body = JSON.stringify(trackMessage(`bulk-${i}`));
        const first = i % 2 === 0 ? a : b;
        const other = first === a ? b : a;
        if (i % 20 === 0) {
          // 5 %: to both receivers at once (two instances behind a balancer)
          const answers = await Promise.all([deliver(first.url, body), deliver(other.url, body)]);
          answers.forEach((x) => count(x.status));
        } else if (i % 10 === 1) {
          // 10 %: sent twice to one receiver (a retry after a lost answer)
          count((await deliver(first.url, body)).status);
          count((await deliver(first.url, body)).status);
        } else {
          count((await deliver(first.url, body)).status);
        }
      },
    );
    const sentMs = performance.now() - started;
    expect(Object.fromEntries(statuses)).toEqual({ 200: total + total / 20 + total / 10 });
    await until(
      () => doneCounts(workers).size >= total,
      40_000,
      () => `${doneCounts(workers).size} of ${total} processed`,
    );
    await new Promise((r) => setTimeout(r, 500)); // any second run would show up now
    const counts = doneCounts(workers);
    expect(counts.size).toBe(total);
    const twice = [...counts].filter(([, n]) => n !== 1);
    expect(twice).toEqual([]);
    // Both workers took part.
    expect(workers.every((w) => w.lines.some((l) => 'done' in l))).toBe(true);
    const q = queueClient(queue);
    expect(await q.getJobCountByTypes('completed')).toBe(total);
    console.log(
      `5,000 messages through 2 receivers and 2 workers: sent in ${(sentMs / 1000).toFixed(1)} s, all processed after ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }, 90_000);

  it('a worker killed mid-job: the job is taken again and completes', async () => {
    const queue = newQueueName();
    const key = 'id:mid-job';
    const receiver = track(await startReceiver({ redisPort: redis.port, queue }));
    const first = track(
      await startWorker({
        redisPort: redis.port,
        queue,
        name: 'first',
        lockMs: 1000,
        stalledMs: 500,
        hangKey: key,
        hangWorker: 'first',
      }),
    );
    expect((await deliver(receiver.url, JSON.stringify(trackMessage('mid-job')))).status).toBe(200);
    await first.waitFor((l) => l.start === key);
    first.proc.kill('SIGKILL');
    const second = track(
      await startWorker({ redisPort: redis.port, queue, name: 'second', lockMs: 1000, stalledMs: 500 }),
    );
    const done = await second.waitFor((l) => l.done === key, 20_000);
    expect(done.worker).toBe('second');
    expect(first.lines.some((l) => l.done === key)).toBe(false);
    const job = await queueClient(queue).getJob(jobIdOf(key));
    expect(await job?.getState()).toBe('completed');
  }, 60_000);

  it('Redis paused while requests arrive: 503 within the deadline, no 200 without a job; the retries after it resumes make one job each', async () => {
    const queue = newQueueName();
    const deadlineMs = 1000;
    const receiver = track(await startReceiver({ redisPort: redis.port, queue, deadlineMs }));
    const q = queueClient(queue);
    await q.waitUntilReady();
    // Warm the receiver's connection, then freeze Redis.
    expect((await post(receiver.url, JSON.stringify(trackMessage('before-pause')))).status).toBe(200);
    redis.pause();
    let answers: Array<{ status: number; code: string; ms: number }>;
    try {
      answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => post(receiver.url, JSON.stringify(trackMessage(`paused-${i}`)))),
      );
    } finally {
      redis.resume();
    }
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.code).toBe('queue_unavailable');
      expect(answer.ms).toBeLessThan(deadlineMs + 1500);
    }
    // The sender retries: now each is stored, once, whatever the frozen commands did after the thaw.
    for (let i = 0; i < 20; i++)
      expect((await deliver(receiver.url, JSON.stringify(trackMessage(`paused-${i}`)))).status).toBe(200);
    for (let i = 0; i < 20; i++) expect(await q.getJob(jobIdOf(`id:paused-${i}`))).toBeDefined();
    expect(await q.count()).toBe(21);
  }, 60_000);
});
