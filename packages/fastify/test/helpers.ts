// Small helpers of the Fastify adapter's tests: listening apps on 127.0.0.1, signed requests.
import type { AddressInfo } from 'node:net';
import { postSigned, uniqueMessage } from '../../../test/helpers/signed-requests.js';
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
export const message = uniqueMessage;

/** POSTs a body signed with `secret` (default this suite's) over exactly `text`. */
export function post(url: string, text: string, { secret = SECRET, headers = {} } = {}) {
  return postSigned(url, text, { secret, headers });
}
