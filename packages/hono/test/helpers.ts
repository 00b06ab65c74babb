// Small helpers of the Hono adapter's tests: apps served on 127.0.0.1 by @hono/node-server, signed requests.
import { once } from 'node:events';
import { postSigned, uniqueMessage } from '../../../test/helpers/signed-requests.js';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
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
export const message = uniqueMessage;

/** POSTs a body signed with `secret` (default this suite's) over exactly `text`. */
export function post(url: string, text: string, { secret = SECRET, headers = {} as Record<string, string> } = {}) {
  return postSigned(url, text, { secret, headers });
}
