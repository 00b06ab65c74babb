// An instance dies mid-handler (its process is killed): its claim stays until dedupe.inFlightTtlMs
// expires, the other instance answers 503 in_flight meanwhile, and the sender's retry after that runs it.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRedisServer, type RunningRedis } from '../../../test/helpers/redis-server.js';
import { DEFAULT_KEY_PREFIX } from '../src/index.js';
import { deliver, SECRET, sleep, startInstance, trackMessage, type Instance } from './support/instances.js';

const IN_FLIGHT_TTL_MS = 3000;
const root = fileURLToPath(new URL('../../../', import.meta.url));
const fixture = fileURLToPath(new URL('./fixtures/hanging-instance.ts', import.meta.url));

let redis: RunningRedis;
let plain: Redis;
let survivor: Instance;
let child: ChildProcess | undefined;

beforeAll(async () => {
  redis = await startRedisServer();
  plain = new Redis(redis.url);
  plain.on('error', () => undefined); // it reconnects while a test stops Redis
  survivor = await startInstance({ name: 'survivor', redisUrl: redis.url, inFlightTtlMs: IN_FLIGHT_TTL_MS });
});

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await survivor?.close();
  plain?.disconnect();
  await redis?.stop();
});

it('the claim of a killed instance expires after inFlightTtlMs, then the retry runs the handler on another instance', async () => {
  child = spawn(process.execPath, ['--import', 'tsx', fixture], {
    cwd: root, // tsx resolves @hookgate/* through the root tsconfig paths
    env: { ...process.env, REDIS_URL: redis.url, WEBHOOK_SECRET: SECRET, IN_FLIGHT_TTL_MS: String(IN_FLIGHT_TTL_MS) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => JSON.parse(String((await lines.next()).value)) as { port?: number; started?: string };
  const { port } = await next();
  expect(port).toBeGreaterThan(0);

  const message = trackMessage();
  const doomed = deliver(`http://127.0.0.1:${port}`, message).catch((error: unknown) => error); // never answered
  expect((await next()).started).toBe(message.messageId);

  const exited = once(child, 'exit');
  child.kill('SIGKILL'); // the instance dies mid-handler, without releasing its claim
  await exited;
  expect(await doomed).toBeInstanceOf(Error); // the sender saw a connection error: it will retry

  const key = `${DEFAULT_KEY_PREFIX}id:${message.messageId}`;
  expect(await plain.get(key)).toMatch(/^in-flight:/);
  const pttl = await plain.pttl(key);
  expect(pttl).toBeGreaterThan(0);
  expect(pttl).toBeLessThanOrEqual(IN_FLIGHT_TTL_MS);

  // A retry while the dead instance's claim lasts: 503, the sender tries again later.
  const early = await deliver(survivor.url, message);
  expect(early.status).toBe(503);
  expect(early.code).toBe('in_flight');
  expect(survivor.handled).toEqual([]);

  // After the in-flight TTL, the retry runs the handler; nothing was lost.
  await sleep(pttl + 50);
  const late = await deliver(survivor.url, message);
  expect(late.status).toBe(200);
  expect(late.code).toBe('ok');
  expect(survivor.handled).toEqual([message.messageId]);
  expect(await plain.get(key)).toBe('done');
});
