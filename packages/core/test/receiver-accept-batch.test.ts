// `accept()` on a Webhooks (Actions) batch (`insecureAcceptBatches`): the batch is its own kind, each
// new element an accepted message with its own context and claim. `run()` runs the handler once per
// element (never on the array), and each element's claim is settled, so the sender's resend is a
// duplicate, not a 503 in_flight; settling each element by hand does the same. Before, `accept()`
// passed the batch off as one message whose `message` was the array and no claim was ever settled.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createReceiver, type AcceptResult, type ReceiverOptions, type WebhookMessage } from '../src/index.js';

const SECRET = 'whsec_accept_batch_6d21';
const hmac = (text: string) => createHmac('sha1', SECRET).update(text).digest('hex');

const event = (messageId: string, name: string) => ({
  type: 'track',
  event: name,
  userId: 'u-1',
  messageId,
  timestamp: '2026-11-27T10:00:00.000Z',
  receivedAt: '2026-11-27T10:00:01.000Z',
});
const batch = [event('m-1', 'Ordered'), event('m-2', 'Shipped')];
const input = () => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-signature': hmac(JSON.stringify(batch[0])) },
  rawBody: JSON.stringify(batch),
});

function receiver(onTrack: (event: WebhookMessage) => void = () => undefined) {
  return createReceiver({
    destination: 'actions',
    secret: SECRET,
    insecureAcceptBatches: true,
    onError: () => undefined,
    on: { track: onTrack },
  } as unknown as ReceiverOptions);
}

function expectBatch(result: AcceptResult) {
  if (result.kind !== 'batch') throw new Error(`expected a batch, got ${result.kind}`);
  return result;
}

describe('accept() on a batch', () => {
  it('is a batch of accepted messages, each with its own context; run() runs the handler per element', async () => {
    const r = receiver();
    const accepted = expectBatch(await r.accept(input()));
    expect(accepted.elements.map((e) => e.message)).toEqual(batch);
    expect(accepted.elements.map((e) => [e.kind, e.context.batch.index, e.context.dedupeKey])).toEqual([
      ['message', 0, expect.any(String)],
      ['message', 1, expect.any(String)],
    ]);
    expect(accepted.elements.map((e) => e.context.batch.signed)).toEqual([true, false]);
    expect(accepted.signedBody).toBe(JSON.stringify(batch[0]));

    const seen: unknown[] = [];
    const answer = await r.run(accepted, (message, context) => void seen.push([message.type, context.dedupeKey]));
    expect(answer.status).toBe(200);
    expect(seen).toEqual(accepted.elements.map((e) => ['track', e.context.dedupeKey]));

    // Every claim settled as handled: the resend is a duplicate, not 503 in_flight.
    const again = await r.accept(input());
    expect(again.kind === 'response' && again.response.code).toBe('duplicate');
  });

  it('a failing element frees its own claim only: the resend runs it alone', async () => {
    const r = receiver();
    const first = expectBatch(await r.accept(input()));
    const answer = await r.run(first, (message) => {
      if ((message as { event?: string }).event === 'Shipped') throw new Error('not yet');
    });
    expect(answer.code).toBe('handler_error');
    const resend = expectBatch(await r.accept(input()));
    expect(resend.elements.map((e) => (e.message as { messageId?: string }).messageId)).toEqual(['m-2']);
  });

  it('settled by hand, element by element, the resend is a duplicate', async () => {
    const r = receiver();
    const accepted = expectBatch(await r.accept(input()));
    for (const element of accepted.elements) await element.settle('handled');
    const again = await r.accept(input());
    expect(again.kind === 'response' && again.response.code).toBe('duplicate');
  });

  it('handle() still runs on.track per element', async () => {
    const ran: string[] = [];
    const r = receiver((message) => void ran.push((message as { messageId?: string }).messageId ?? ''));
    expect((await r.handle(input())).code).toBe('ok');
    expect(ran).toEqual(['m-1', 'm-2']);
  });
});
