// Small helpers of the Hono adapter's tests: apps served on 127.0.0.1 by @hono/node-server, signed requests.
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { fixture, sign, type MessageType, type WebhookMessage } from '@hookgate/core';
import type { Hono } from 'hono';

export const SECRET = 'whsec_hono_tests_71bd';

const running: Server[] = [];

/** Serves a Hono app on 127.0.0.1:0 and returns the base URL; closed by `closeAll()`. */
export async function serve(app: Hono<any>): Promise<string> {
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  running.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes every server `serve` started. */
export async function closeAll(): Promise<void> {
  while (running.length) {
    const server = running.pop()!;
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
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
