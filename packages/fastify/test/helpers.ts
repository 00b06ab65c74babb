// Small helpers of the Fastify adapter's tests: listening apps on 127.0.0.1, signed requests.
import type { AddressInfo } from 'node:net';
import { fixture, sign, type MessageType, type WebhookMessage } from '@hookgate/core';
import type { FastifyInstance } from 'fastify';

export const SECRET = 'whsec_fastify_tests_9c2e';

const running: FastifyInstance[] = [];

/** Listens on 127.0.0.1:0 and returns the base URL; closed by `closeAll()`. */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  running.push(app);
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** Closes every app `listen` started. */
export async function closeAll(): Promise<void> {
  while (running.length) await running.pop()!.close();
}

/** A unique seed-shaped message. */
export function message(type: MessageType = 'track', userId = `user_${Math.random().toString(36).slice(2)}`): WebhookMessage {
  return type === 'alias' ? fixture('alias', { 'User ID': userId }) : fixture(type, { userId } as never);
}

/** POSTs a body signed with `secret` (over exactly `text`). */
export async function post(url: string, text: string, { secret = SECRET, headers = {} as Record<string, string> } = {}) {
  const res = await fetch(url, {
    method: 'POST',
    body: text,
    headers: { 'content-type': 'application/json', 'x-signature': sign(text, secret), ...headers },
  });
  return { status: res.status, body: await res.text() };
}
