// Receiver instances for the tests: core's receiver + a RedisIdempotencyStore, on a real node:http server.
import { randomUUID } from 'node:crypto';
import {
  createReceiver,
  extraFields,
  fixture,
  sign,
  toNodeListener,
  type ReceiverErrorInfo,
  type TrackMessage,
} from '@hookgate/core';
import type { Redis } from 'ioredis';
import { RedisIdempotencyStore } from '../../src/index.js';
import { startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';

export const SECRET = 'whsec_redis_test_secret';

/** A running instance: its HTTP server, its store, what its handler saw and what onError got. */
export interface Instance {
  name: string;
  url: string;
  store: RedisIdempotencyStore;
  server: RunningServer;
  handled: string[];
  errors: Array<{ error: unknown; info: ReceiverErrorInfo }>;
  close(): Promise<void>;
}

export interface InstanceOptions {
  name: string;
  redisUrl: string;
  /** The track handler; default: records the messageId. */
  onTrack?: (message: TrackMessage, instance: Instance) => unknown;
  inFlightTtlMs?: number;
  ttlMs?: number;
  deadlineMs?: number;
  commandTimeoutMs?: number;
  keyPrefix?: string;
}

/** Starts one receiver instance with its own Redis connection (as a separate process would have). */
export async function startInstance(options: InstanceOptions): Promise<Instance> {
  const store = new RedisIdempotencyStore({
    connection: options.redisUrl,
    keyPrefix: options.keyPrefix,
    commandTimeoutMs: options.commandTimeoutMs ?? 1000,
    logger: { warn: () => undefined },
  });
  await store.ready();
  const instance = { name: options.name, store, handled: [] as string[], errors: [] } as unknown as Instance;
  const receiver = createReceiver({
    secret: SECRET,
    deadlineMs: options.deadlineMs ?? 2000,
    dedupe: { store, inFlightTtlMs: options.inFlightTtlMs, ttlMs: options.ttlMs },
    logger: { warn: () => undefined },
    onError: (error, info) => instance.errors.push({ error, info }),
    on: {
      track: async (message) => {
        if (options.onTrack) await options.onTrack(message, instance);
        instance.handled.push(String(extraFields(message).messageId));
      },
    },
  });
  const server = await startHttpServer(toNodeListener(receiver));
  instance.server = server;
  instance.url = server.url;
  instance.close = async () => {
    await server.close();
    await receiver.drain();
    await store.close();
  };
  return instance;
}

/** A track message with a fresh messageId, in the seed's shape (core's fixture). */
export function trackMessage(id = `msg-${randomUUID()}`): TrackMessage & { messageId: string } {
  return fixture('track', { messageId: id });
}

/** What an instance answered. */
export interface Answer {
  status: number;
  code: string;
  body: Record<string, unknown>;
}

/** POSTs a body signed as the sender signs it, and reads the receiver's JSON answer. */
export async function deliver(url: string, message: object | string, secret = SECRET): Promise<Answer> {
  const body = typeof message === 'string' ? message : JSON.stringify(message);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature': sign(body, secret), 'user-agent': 'Segment.io/1.0' },
    body,
  });
  const json = (await res.json()) as Record<string, unknown>;
  return { status: res.status, code: String(json.code), body: json };
}

/** A plain client to look at the keys the store wrote. */
export async function inspect(client: Redis, key: string): Promise<{ value: string | null; pttl: number }> {
  const [value, pttl] = await Promise.all([client.get(key), client.pttl(key)]);
  return { value, pttl };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
