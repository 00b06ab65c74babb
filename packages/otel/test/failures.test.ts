// The answers made on failure paths, on the real SDK: a queue that refuses the message (503
// queue_unavailable), a dedupe store that is away (503 store_unavailable), a body over the limit counted
// while reading (413, reported by the entry flow), a body that is not JSON
// (400). Each is one span with its code, ERROR for the 5xx with the failure's type and message, and
// nothing exported holds the secret, the signature, a trait or a property value.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanStatusCode } from '@opentelemetry/api';
import { createReceiver, fixture, sign, toNodeListener, type ReceiverOptions } from '@hookgate/core';
import { afterEach, expect, it } from 'vitest';
import { spansNamed, startSdk } from './support/otel-sdk.js';

const SECRET = 'whsec_otel_failures_SECRET_77aa';
const TRAIT = 'trait-value-failure@example.com';
const PROPERTY = 'property-value-failure-9911';

let server: http.Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

async function serve(options: ReceiverOptions): Promise<number> {
  const listener = toNodeListener(createReceiver(options));
  server = http.createServer((req, res) => void listener(req, res));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** POSTs `body` signed; `chunked` sends it without a Content-Length (so only counting finds it too large). */
function post(port: number, body: string, chunked = false): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-signature': sign(body, SECRET) };
    if (chunked) headers['transfer-encoding'] = 'chunked';
    else headers['content-length'] = String(Buffer.byteLength(body));
    const req = http.request({ host: '127.0.0.1', port, path: '/', method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const body = JSON.stringify(
  fixture('track', {
    messageId: 'm-f',
    event: 'Paid',
    properties: { p: PROPERTY },
    context: { traits: { t: TRAIT } },
  } as never),
);

it('reports every failure answer with its code, ERROR on 5xx, and no secret, signature, trait or property', async () => {
  const sdk = startSdk({ recordExceptionMessages: true });
  const common = { secret: SECRET, telemetry: sdk.telemetry, logger: false as const, onError: () => {} };
  let port = await serve({
    ...common,
    enqueue: () => {
      throw new TypeError('the queue is full');
    },
  });
  expect(await post(port, body)).toBe(503);
  server!.close();
  port = await serve({
    ...common,
    onMessage: () => {},
    dedupe: {
      store: {
        claim: () => Promise.reject(new Error('the store is away')),
        complete: () => Promise.resolve(),
        release: () => Promise.resolve(),
      },
    },
  });
  expect(await post(port, body)).toBe(503);
  server!.close();
  port = await serve({ ...common, onMessage: () => {}, maxBodyBytes: 100 });
  expect(await post(port, body, true)).toBe(413);
  expect(await post(port, '{"not json')).toBe(400);

  const receives = spansNamed(sdk.spans(), 'hookgate.receive');
  expect(
    receives.map((s) => [s.attributes['hookgate.answer.code'], s.attributes['http.response.status_code']]),
  ).toEqual([
    ['queue_unavailable', 503],
    ['store_unavailable', 503],
    ['payload_too_large', 413],
    ['invalid_json', 400],
  ]);
  const [queue, store, tooLarge, notJson] = receives;
  expect(queue!.status.code).toBe(SpanStatusCode.ERROR);
  expect(store!.status.code).toBe(SpanStatusCode.ERROR);
  expect(tooLarge!.status.code).toBe(SpanStatusCode.UNSET);
  expect(notJson!.status.code).toBe(SpanStatusCode.UNSET);
  // The queue's failure is on its enqueue span, by type and (asked for) message.
  const [enqueue] = spansNamed(sdk.spans(), 'hookgate.enqueue');
  expect(enqueue!.events.map((e) => e.attributes)).toEqual([
    { 'exception.type': 'TypeError', 'exception.message': 'the queue is full' },
  ]);
  expect(await sdk.count('hookgate.queue.enqueue.duration', { 'error.type': 'TypeError' })).toBe(1);
  expect(await sdk.count('hookgate.receiver.answers', { 'http.response.status_code': 503 })).toBe(2);

  const exported = await sdk.everything();
  for (const secret of [SECRET, TRAIT, PROPERTY, sign(body, SECRET)]) expect(exported).not.toContain(secret);
});
