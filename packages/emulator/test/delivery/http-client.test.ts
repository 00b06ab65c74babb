// The emulator's HTTP client writes a header list as given: names in their case and order, a name
// given twice (in two spellings) as repeated lines where it first came, and a header named like an object key as a header.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { sendHttpRequest, type HttpOutcome } from '../../src/delivery/http-client.js';

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

it('writes each name in its case and order, repeated names as repeated lines', async () => {
  let seen: string[] = [];
  server = http.createServer((req, res) => {
    seen = req.rawHeaders;
    req.resume().on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/h`);
  const outcome = await new Promise<HttpOutcome>((resolve) =>
    sendHttpRequest(
      {
        url,
        method: 'POST',
        headers: ['X-Tag', 'a', 'Content-Length', '2', 'x-TAG', 'b', '__proto__', 'p', 'Host', url.host],
        body: '{}',
        agent: false,
        maxAnswerBytes: 100,
      },
      resolve,
    ),
  );
  expect(outcome.answer?.status).toBe(200);
  expect(seen).toEqual([
    'X-Tag',
    'a',
    'X-Tag',
    'b',
    'Content-Length',
    '2',
    '__proto__',
    'p',
    'Host',
    url.host,
    'Connection',
    'close',
  ]);
});
