// The demo's second endpoint: a receiver built with @hookgate/core that answers 500 to the first
// delivery of each message (as a receiver with a brief outage would), then handles the retry.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createReceiver, type WebhookMessage } from '@hookgate/core';
import { readNodeBody, writeNodeResponse } from '@hookgate/core/adapter';

/** A running flaky receiver: its webhook URL, what its handler saw, and how many 500s it gave. */
export interface FlakyReceiver {
  url: string;
  seen: WebhookMessage[];
  failuresSent: () => number;
  close(): Promise<void>;
}

/**
 * Starts the flaky receiver on 127.0.0.1 and a free port.
 *
 * @example
 * const flaky = await startFlakyReceiver({ secret: 's3cret' });
 */
export async function startFlakyReceiver(options: { secret: string }): Promise<FlakyReceiver> {
  const seen: WebhookMessage[] = [];
  const failedOnce = new Set<string>();
  const receiver = createReceiver({ secret: options.secret, onMessage: (message) => void seen.push(message) });
  const server = http.createServer((req, res) => {
    // A failure here (a socket closed mid-answer) ends that request; the server keeps serving.
    void (async () => {
      const body = await readNodeBody(req, receiver);
      if (!(body instanceof Uint8Array)) return writeNodeResponse(res, body);
      const key = Buffer.from(body).toString('base64');
      if (!failedOnce.has(key)) {
        failedOnce.add(key);
        res.writeHead(500, { 'content-type': 'text/plain' }).end('temporarily down');
        return;
      }
      writeNodeResponse(
        res,
        await receiver.handle({ method: req.method ?? 'POST', headers: req.headers, rawBody: body }),
      );
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/billing-hooks`,
    seen,
    failuresSent: () => failedOnce.size,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
