// Small helpers of the Express adapter's tests: real servers on 127.0.0.1, signed requests.
import { fixture, sign, type MessageType, type WebhookMessage } from '@hookgate/core';
import type { Express } from 'express';
import { startHttpServer, type RunningServer } from '../../../test/helpers/servers.js';

export const SECRET = 'whsec_express_tests_3a1f';

const running: RunningServer[] = [];

/** Starts an app on 127.0.0.1:0; closed by `closeAll()`. */
export async function serve(app: Express): Promise<RunningServer> {
  const server = await startHttpServer(app);
  running.push(server);
  return server;
}

/** Closes every server `serve` started. */
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
