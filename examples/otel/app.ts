// The example's receiver and worker: an Express receiver that stores each verified message in BullMQ
// (`enqueue: enqueueTo(queue)`), a worker that checks it against a tracking plan and handles it, both
// given the same `telemetry: openTelemetry()`, so one trace runs from the delivery to the handler.
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Queue } from 'bullmq';
import { createWorker, enqueueTo } from '@hookgate/bullmq';
import { hookgate } from '@hookgate/express';
import { openTelemetry } from '@hookgate/otel';
import { compileTrackingPlan } from '@hookgate/plans';

/** Where the example runs. */
export interface OtelExampleOptions {
  secret: string;
  redis: { host: string; port: number };
  /** The receiver's port (default 3000; 0 for any free one). */
  port?: number;
}

/** The running receiver and worker. */
export interface OtelExample {
  url: string;
  /** Resolves once the worker has finished `count` jobs (completed or failed for good). */
  processed(count: number): Promise<void>;
  close(): Promise<void>;
}

const plan = compileTrackingPlan(JSON.parse(readFileSync(new URL('./plan.json', import.meta.url), 'utf8')));

/**
 * Starts the Express receiver and the BullMQ worker. Start the OpenTelemetry SDK first.
 *
 * @example
 * const app = await startApp({ secret, redis: { host: '127.0.0.1', port: 6379 } });
 */
export async function startApp(options: OtelExampleOptions): Promise<OtelExample> {
  const telemetry = openTelemetry();
  const queue = new Queue('webhooks', { connection: options.redis });
  const app = express();
  // dedupe: {} keeps a store beside the queue (the queue alone dedupes by job id, answering a retry
  // 200 ok): the sender's retries are answered 200 duplicate, and counted as such. Several
  // instances share a RedisIdempotencyStore instead.
  app.post(
    '/webhooks',
    hookgate({ secret: options.secret, telemetry, enqueue: enqueueTo(queue), dedupe: {}, logger: false }),
  );
  const server = http.createServer(app).listen(options.port ?? 3000, '127.0.0.1');
  await once(server, 'listening');

  let finished = 0;
  const waiting: Array<() => void> = [];
  const worker = createWorker('webhooks', {
    connection: options.redis,
    telemetry,
    trackingPlan: plan,
    on: {
      track: async (msg, ctx) => {
        // Your work; with `ctx.violations` from the plan (also counted in hookgate.plan.violations).
        if (ctx.violations.length > 0) console.log(`  [worker] ${msg.event}: ${ctx.violations[0]?.message}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      },
    },
  });
  const settled = () => {
    finished++;
    waiting.splice(0).forEach((wake) => wake());
  };
  worker.on('completed', settled);
  worker.on('failed', (job) => job && job.attemptsMade >= (job.opts.attempts ?? 1) && settled());
  await worker.waitUntilReady();

  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    processed: (count) =>
      new Promise<void>((resolve) => {
        const check = () => (finished >= count ? resolve() : waiting.push(check));
        check();
      }),
    async close() {
      server.closeAllConnections();
      server.close();
      await worker.close();
      await queue.close();
    },
  };
}
