// The example receivers, attacked as an outside probe would: headers trickled one byte every 500 ms
// from a client in another process. They must bound header time as the receiver docs tell users to
// (headersTimeout 10 s, checked every second): 408 after about 10 s, not Node's 60 s checked every 30 s.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RunningRedis } from '../helpers/redis-server.js';
import { start as startExpress } from '../../examples/express-receiver/server.js';
import { start as startFastify } from '../../examples/fastify-receiver/server.js';
import { start as startHono } from '../../examples/hono-receiver/server.js';
import { start as startNest } from '../../examples/nest-receiver/server.js';
import type { RawOutcome, RawPlan } from './raw-attack-client.js';
import { runOutcomesProcess } from '../helpers/outcomes-process.js';

const CLIENT = fileURLToPath(new URL('./raw-attack-client.ts', import.meta.url));

function clients(plans: RawPlan[]): Promise<RawOutcome[]> {
  return runOutcomesProcess<RawOutcome[]>(CLIENT, plans);
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let redis: RunningRedis;
beforeAll(async () => {
  redis = await startRedisServer();
}, 30_000);

/** Starts a process example (`node --import tsx FILE`) and resolves with the port it prints. */
function spawnExample(file: string, env: Record<string, string>): Promise<{ url: string; close(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const port = /"port":(\d+)/.exec(out)?.[1];
      if (port !== undefined)
        resolve({
          url: `http://127.0.0.1:${port}/webhooks`,
          close: () =>
            new Promise<void>((done) =>
              child.exitCode !== null ? done() : (child.once('exit', () => done()), child.kill('SIGTERM')),
            ),
        });
    });
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}:\n${out}`)));
  });
}

const EXAMPLES = {
  express: startExpress,
  fastify: startFastify,
  hono: startHono,
  nest: startNest,
  'bullmq receiver (process)': () =>
    spawnExample('examples/bullmq/receiver.ts', {
      REDIS_HOST: '127.0.0.1',
      REDIS_PORT: String(redis.port),
      WEBHOOK_SECRET: 'whsec_example_attack',
    }),
  'redis-instances instance (process)': () =>
    spawnExample('examples/redis-instances/instance.ts', {
      REDIS_URL: redis.url,
      WEBHOOK_SECRET: 'whsec_example_attack',
      INSTANCE: 'attack',
    }),
};
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
  await redis?.stop();
});

describe.concurrent('example receivers bound slow headers', () => {
  for (const [name, start] of Object.entries(EXAMPLES)) {
    it(`${name}: headers trickled 1 byte / 500 ms get 408 after about 10 s`, async () => {
      const rx = await (
        start as (o: { port: number; secret: string }) => Promise<{ url: string; close(): Promise<void> }>
      )({ port: 0, secret: 'whsec_example_attack' });
      closers.push(rx.close);
      const port = Number(new URL(rx.url).port);
      const [o] = await clients([
        {
          port,
          send: `POST /webhooks HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Padding: `,
          trickle: { byte: 'a', everyMs: 500, untilMs: 20_000 },
          waitMs: 20_000,
        },
      ]);
      expect(o!.statuses, JSON.stringify(o)).toEqual([408]);
      expect(o!.firstByteMs).toBeGreaterThanOrEqual(9_500);
      expect(o!.firstByteMs).toBeLessThan(13_000); // 10 s, at most one 1 s check, and load
      // A prompt request is still answered as usual.
      const prompt = await fetch(rx.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(prompt.status).toBe(401);
    }, 40_000);
  }
});
