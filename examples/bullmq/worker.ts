// The worker: typed handlers for the jobs the receiver stored, with BullMQ's retries.
// Env: REDIS_HOST, REDIS_PORT. Prints {"processed", "event", "attempt"} per message it handled.
import { extraFields } from '@hookgate/core';
import { createWorker } from '@hookgate/bullmq';

const connection = { host: process.env.REDIS_HOST ?? '127.0.0.1', port: Number(process.env.REDIS_PORT ?? 6379) };
const say = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

const worker = createWorker('webhooks', {
  connection,
  concurrency: 10,
  on: {
    track: async (msg, ctx) => {
      // The work: write idempotently, keyed by ctx.dedupeKey (a job can run twice if a worker dies mid-job).
      await new Promise((resolve) => setTimeout(resolve, 100));
      say({ processed: extraFields(msg).messageId ?? ctx.dedupeKey, event: msg.event, attempt: ctx.attempt });
    },
  },
  onMessage: (msg, ctx) =>
    say({ processed: extraFields(msg).messageId ?? ctx.dedupeKey, type: msg.type, attempt: ctx.attempt }),
});
await worker.waitUntilReady();
say({ ready: true });

const stop = () => void worker.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
