// Small helpers of the Express adapter's tests: real servers on 127.0.0.1, signed requests.
import type { Express } from 'express';
import { postSigned, uniqueMessage } from '../../../test/helpers/signed-requests.js';
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
export const message = uniqueMessage;

/** POSTs a body signed with `secret` (default this suite's) over exactly `text`. */
export function post(url: string, text: string, { secret = SECRET, headers = {} } = {}) {
  return postSigned(url, text, { secret, headers });
}
