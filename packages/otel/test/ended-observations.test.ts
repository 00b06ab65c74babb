// Every delivery's `hookgate.receive` span ends and is counted, on the real SDK, also where no answer
// reaches the client: a client that goes away mid-body (core's node listener, Express), reported as
// `client_closed`; and `accept()` followed by `settle()`, as the documented hand-off by hand does,
// reported by the settled outcome, once, even when `run()` follows.
import net from 'node:net';
import { createReceiver, fixture, sign } from '@hookgate/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { spansNamed, startSdk } from './support/otel-sdk.js';
import { ADAPTERS, type Served } from './support/receivers.js';

const SECRET = 'whsec_otel_ended_SECRET_40e1';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** Sends a request head promising 1,000 bytes, 10 of them, then closes the connection. */
async function abortMidBody(url: string): Promise<void> {
  const { port, pathname } = new URL(url);
  const socket = net.connect(Number(port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(
    `POST ${pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `X-Signature: ${'0'.repeat(40)}\r\nContent-Length: 1000\r\n\r\n{"type":"t`,
  );
  // The receiver has the head once it reads the first bytes: wait for them to leave, then go away.
  await new Promise((resolve) => socket.once('drain', resolve).write('', resolve));
  socket.destroy();
}

describe.each(['core node listener', 'express'])('%s: a client that goes away mid-body', (name) => {
  it('ends hookgate.receive as client_closed and counts it', async () => {
    const sdk = startSdk();
    served = await ADAPTERS[name]!({ secret: SECRET, telemetry: sdk.telemetry, onMessage() {} });
    await abortMidBody(served.url);
    await vi.waitFor(() => expect(spansNamed(sdk.spans(), 'hookgate.receive')).toHaveLength(1), {
      timeout: 10_000,
    });
    const [span] = spansNamed(sdk.spans(), 'hookgate.receive');
    expect(span!.attributes).toMatchObject({
      'hookgate.answer.code': 'client_closed',
      'http.response.status_code': 499,
    });
    expect(await sdk.count('hookgate.receiver.answers', { 'hookgate.answer.code': 'client_closed' })).toBe(1);
  });
});

describe('accept() then settle()', () => {
  const body = JSON.stringify(fixture('track', { messageId: 'm-settle', event: 'Paid' } as never));
  const input = () => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature': sign(body, SECRET) },
    rawBody: body,
  });

  it.each([
    ['handled', 'ok', 200],
    ['failed', 'handler_error', 500],
  ] as const)('settle(%s) ends the span as %s', async (outcome, code, status) => {
    const sdk = startSdk();
    const receiver = createReceiver({ secret: SECRET, telemetry: sdk.telemetry, onMessage() {} });
    const accepted = await receiver.accept(input());
    if (accepted.kind !== 'message') throw new Error(`not accepted: ${accepted.kind}`);
    expect(spansNamed(sdk.spans(), 'hookgate.receive')).toHaveLength(0);
    await accepted.settle(outcome);
    const spans = spansNamed(sdk.spans(), 'hookgate.receive');
    expect(spans).toHaveLength(1);
    expect(spans[0]!.attributes).toMatchObject({
      'hookgate.answer.code': code,
      'http.response.status_code': status,
      'hookgate.message.type': 'track',
    });
    expect(await sdk.count('hookgate.receiver.answers')).toBe(1);
  });

  it('run() after accept() reports once', async () => {
    const sdk = startSdk();
    const receiver = createReceiver({ secret: SECRET, telemetry: sdk.telemetry, onMessage() {} });
    const accepted = await receiver.accept(input());
    if (accepted.kind !== 'message') throw new Error(`not accepted: ${accepted.kind}`);
    const answer = await receiver.run(accepted, () => undefined);
    expect(answer.code).toBe('ok');
    expect(spansNamed(sdk.spans(), 'hookgate.receive')).toHaveLength(1);
    expect(await sdk.count('hookgate.receiver.answers')).toBe(1);
  });
});

describe('accept() on a batch, then each element settled', () => {
  it('ends the span once, when the last element is settled', async () => {
    const sdk = startSdk();
    const event = (messageId: string) => ({
      type: 'track',
      event: 'Ordered',
      userId: 'u-1',
      messageId,
      timestamp: '2026-11-27T10:00:00.000Z',
      receivedAt: '2026-11-27T10:00:01.000Z',
    });
    const events = [event('m-b1'), event('m-b2')];
    const receiver = createReceiver({
      destination: 'actions',
      secret: SECRET,
      insecureAcceptBatches: true,
      telemetry: sdk.telemetry,
      on: { track() {} },
    } as never);
    const accepted = await receiver.accept({
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': sign(JSON.stringify(events[0]), SECRET) },
      rawBody: JSON.stringify(events),
    });
    if (accepted.kind !== 'batch') throw new Error(`not a batch: ${accepted.kind}`);
    await accepted.elements[0]!.settle('handled');
    expect(spansNamed(sdk.spans(), 'hookgate.receive')).toHaveLength(0);
    await accepted.elements[1]!.settle('failed');
    const spans = spansNamed(sdk.spans(), 'hookgate.receive');
    expect(spans.map((s) => s.attributes['hookgate.answer.code'])).toEqual(['handler_error']);
  });
});
