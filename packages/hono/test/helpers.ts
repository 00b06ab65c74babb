// Small helpers of the Hono adapter's tests: apps served on 127.0.0.1 by @hono/node-server, signed requests.
import type { Server } from 'node:http';
import { listenOnLoopback, type RunningServer } from '../../../test/helpers/servers.js';
import { postSigned, uniqueMessage } from '../../../test/helpers/signed-requests.js';
import { createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';

export const SECRET = 'whsec_hono_tests_71bd';

const running: RunningServer[] = [];

/** Serves a Hono app on 127.0.0.1:0 and returns the base URL; closed by `closeAll()`. */
export async function serve(app: Hono<any>): Promise<string> {
  const served = await listenOnLoopback(createAdaptorServer({ fetch: app.fetch }) as Server);
  running.push(served);
  return served.url;
}

/** Closes every server `serve` started. */
export async function closeAll(): Promise<void> {
  while (running.length) await running.pop()!.close();
}

/** A unique seed-shaped message. */
export const message = uniqueMessage;

/** POSTs a body signed with `secret` (default this suite's) over exactly `text`. */
export function post(url: string, text: string, { secret = SECRET, headers = {} } = {}) {
  return postSigned(url, text, { secret, headers });
}
