// Through the queue, on a real redis-server and BullMQ: a receiver with `enqueue: enqueueTo(queue)` and
// a worker, both given the same `openTelemetry()`: every attempt of the job (a failed one, then its
// retry) is a `hookgate.process` span in the delivery's trace, under its `hookgate.receive` span's
// `hookgate.enqueue` span,
// with the worker's tracking-plan violations.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { createReceiver, fixture, sign, toNodeListener } from '@hookgate/core';
import { createWorker, enqueueTo, type HandoffJobData } from '@hookgate/bullmq';
import { Queue, type Job } from 'bullmq';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRedisServer, type RunningRedis } from '../../../test/helpers/redis-server.js';
import { spansNamed, startSdk } from './support/otel-sdk.js';
import { compileTrackingPlan } from '@hookgate/plans';

const SECRET = 'whsec_otel_worker_SECRET_51be';
const PROPERTY = 'property-value-iban-DE89';

const plan = compileTrackingPlan(
  JSON.parse(
    readFileSync(new URL('../../../test/fixtures/tracking-plans/public-api-rules.json', import.meta.url), 'utf8'),
  ),
);

let redis: RunningRedis;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});

it('puts the worker’s hookgate.process spans, retries included, in the receiver’s trace', async () => {
  const sdk = startSdk();
  const connection = { host: redis.host, port: redis.port };
  const queueName = `otel-${process.pid}`;
  const queue = new Queue(queueName, { connection });
  const receiver = createReceiver({
    secret: SECRET,
    telemetry: sdk.telemetry,
    enqueue: enqueueTo(queue, { jobOptions: { attempts: 3, backoff: { type: 'fixed', delay: 20 } } }),
  });
  const listener = toNodeListener(receiver);
  const server = http.createServer((req, res) => void listener(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const app = sdk.tracerProvider.getTracer('app');
  let runs = 0;
  let completed!: (job: Job) => void;
  const done = new Promise<Job>((resolve) => (completed = resolve));
  const worker = createWorker(queueName, {
    connection,
    telemetry: sdk.telemetry,
    trackingPlan: plan,
    on: {
      track: () => {
        app.startSpan('app.save').end();
        runs++;
        if (runs === 1) throw new Error('the database is away');
      },
    },
  });
  worker.on('completed', (job) => completed(job));
  try {
    const body = JSON.stringify(
      fixture('track', {
        messageId: 'm-queued',
        event: 'Order Completed',
        properties: { order_id: 'o1', total: '12', iban: PROPERTY },
      } as never),
    );
    const { port } = server.address() as AddressInfo;
    const answer = await fetch(`http://127.0.0.1:${port}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': sign(body, SECRET) },
      body,
    });
    expect(answer.status).toBe(200);
    const job = (await done) as Job<HandoffJobData>;
    expect(runs).toBe(2);

    const [receive] = spansNamed(sdk.spans(), 'hookgate.receive');
    expect(receive!.attributes).toMatchObject({ 'hookgate.answer.code': 'ok', 'hookgate.message.id': 'm-queued' });
    const { traceId } = receive!.spanContext();
    // receive → enqueue (the store, PRODUCER) → process, each attempt.
    const [enqueue] = spansNamed(sdk.spans(), 'hookgate.enqueue');
    expect(enqueue!.kind).toBe(SpanKind.PRODUCER);
    expect(enqueue!.parentSpanContext?.spanId).toBe(receive!.spanContext().spanId);
    const { spanId } = enqueue!.spanContext();
    expect(job.data.traceContext).toBe(`00-${traceId}-${spanId}-01`);

    const processed = spansNamed(sdk.spans(), 'hookgate.process');
    expect(processed.map((s) => s.attributes['hookgate.job.attempt'])).toEqual([1, 2]);
    for (const span of processed) {
      expect(span.kind).toBe(SpanKind.CONSUMER);
      expect(span.spanContext().traceId).toBe(traceId);
      expect(span.parentSpanContext?.spanId).toBe(spanId);
      expect(span.attributes).toMatchObject({
        'messaging.system': 'bullmq',
        'messaging.destination.name': queueName,
        'messaging.message.id': job.id,
        'hookgate.message.type': 'track',
        'hookgate.event': 'Order Completed',
      });
    }
    expect(processed[0]!.status.code).toBe(SpanStatusCode.ERROR);
    expect(processed[0]!.events[0]!.attributes).toEqual({ 'exception.type': 'Error' });
    expect(processed[1]!.status.code).toBe(SpanStatusCode.UNSET);
    // The handler's own spans nest under the attempt that ran them.
    const saves = spansNamed(sdk.spans(), 'app.save');
    expect(saves.map((s) => s.parentSpanContext?.spanId)).toEqual(processed.map((s) => s.spanContext().spanId));

    // The worker's plan found `total` a string: on each attempt's span, and counted once per attempt.
    expect(processed.map((s) => s.attributes['hookgate.plan.violations'])).toEqual([1, 1]);
    expect(
      await sdk.count('hookgate.plan.violations', {
        'hookgate.event': 'Order Completed',
        'hookgate.plan.keyword': 'type',
      }),
    ).toBe(2);
    expect(await sdk.count('hookgate.queue.enqueue.duration')).toBe(1);
    const exported = await sdk.everything();
    for (const secret of [SECRET, PROPERTY, sign(body, SECRET)]) expect(exported).not.toContain(secret);
  } finally {
    await worker.close();
    await queue.close();
    server.closeAllConnections();
    server.close();
  }
});
