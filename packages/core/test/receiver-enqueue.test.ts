// enqueue mode over real HTTP (core's node listener): 200 only once the queue took the message, with what a
// worker needs in the handoff; 503 queue_unavailable (the sender retries) when the queue throws, rejects or is
// still storing at the deadline, reported to onError, and the dedupe claim freed so the retry is taken again.
import { afterEach, describe, expect, it } from 'vitest';
import {
  DeadlineExceededError,
  MemoryIdempotencyStore,
  fixture,
  type Handoff,
  type ReceiverErrorInfo,
} from '../src/index.js';
import { send, serveReceiver, type ServedReceiver } from './helpers/receiver-server.js';

let srv: ServedReceiver | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const track = (messageId?: string) => {
  const message: Record<string, unknown> = { ...fixture('track') };
  if (messageId === undefined) delete message.messageId;
  else message.messageId = messageId;
  return JSON.stringify(message);
};

function errors(): {
  seen: Array<{ error: unknown; info: ReceiverErrorInfo }>;
  onError: (e: unknown, i: ReceiverErrorInfo) => void;
} {
  const seen: Array<{ error: unknown; info: ReceiverErrorInfo }> = [];
  return { seen, onError: (error, info) => void seen.push({ error, info }) };
}

describe('enqueue mode', () => {
  it('answers 200 "Stored in the queue." once stored; the handoff carries the message, key, signed bytes and arrival', async () => {
    const handoffs: Handoff[] = [];
    srv = await serveReceiver({ secret: 'whsec_receiver_test_4b1d', enqueue: (h) => void handoffs.push(h) });
    expect(srv.receiver.mode).toBe('enqueue');
    const text = track('enq-1');
    const before = Date.now();
    const a = await send(srv.url, text);
    expect(a.status).toBe(200);
    expect(a.json).toEqual({ ok: true, code: 'ok', message: 'Stored in the queue.', queued: true });
    expect(handoffs).toHaveLength(1);
    const h = handoffs[0]!;
    expect(h.message).toMatchObject({ type: 'track', messageId: 'enq-1' });
    expect(h.dedupeKey).toBe('id:enq-1');
    expect(h.destination).toBe('classic');
    expect(Buffer.from(h.signedBody as Uint8Array).toString('utf8')).toBe(text);
    expect(h.verification).toEqual({ form: 'raw', secretIndex: 0 });
    expect(h.receivedAt.getTime()).toBeGreaterThanOrEqual(before - 5);
    expect(h.receivedAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(h.signal.aborted).toBe(false);
  });

  it('without a messageId the key is the sha256 of the signed bytes', async () => {
    const keys: string[] = [];
    srv = await serveReceiver({ secret: 'whsec_receiver_test_4b1d', enqueue: (h) => void keys.push(h.dedupeKey) });
    const text = track();
    expect((await send(srv.url, text)).status).toBe(200);
    const { createHash } = await import('node:crypto');
    expect(keys).toEqual([`sha256:${createHash('sha256').update(text).digest('hex')}`]);
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('queue down');
      },
    ],
    ['rejects', () => Promise.reject(new Error('queue down'))],
  ])(
    'a queue that %s → 503 queue_unavailable, Retry-After, onError (phase enqueue); the retry is taken again',
    async (_name, fail) => {
      const { seen, onError } = errors();
      let calls = 0;
      srv = await serveReceiver({
        secret: 'whsec_receiver_test_4b1d',
        dedupe: { store: new MemoryIdempotencyStore() },
        onError,
        enqueue: () => (++calls === 1 ? fail() : undefined),
      });
      const text = track('enq-fail');
      const a = await send(srv.url, text);
      expect(a.status).toBe(503);
      expect(a.headers.get('retry-after')).toBe('5');
      expect(a.json).toEqual({
        ok: false,
        code: 'queue_unavailable',
        message: 'The queue refused the message; the sender will retry.',
      });
      expect(seen).toHaveLength(1);
      expect(seen[0]!.error).toEqual(new Error('queue down'));
      expect(seen[0]!.info).toMatchObject({
        phase: 'enqueue',
        dedupeKey: 'id:enq-fail',
        message: { messageId: 'enq-fail' },
      });
      // The claim was released: the retry reaches the queue, then a third delivery is a duplicate.
      expect((await send(srv.url, text)).json).toMatchObject({ code: 'ok', queued: true });
      expect((await send(srv.url, text)).json).toMatchObject({ code: 'duplicate' });
      expect(calls).toBe(2);
    },
  );

  it('a queue still storing at the deadline → 503 queue_unavailable; its signal fires; a late failure is reported too', async () => {
    const { seen, onError } = errors();
    let signal: AbortSignal | undefined;
    let failLate: (e: Error) => void = () => undefined;
    srv = await serveReceiver({
      secret: 'whsec_receiver_test_4b1d',
      deadlineMs: 200,
      dedupe: { store: new MemoryIdempotencyStore() },
      onError,
      enqueue: (h) => {
        signal = h.signal;
        return new Promise((_resolve, reject) => (failLate = reject));
      },
    });
    const a = await send(srv.url, track('enq-slow'));
    expect(a.status).toBe(503);
    expect(a.json).toEqual({
      ok: false,
      code: 'queue_unavailable',
      message: 'The queue did not take the message within 200 ms; the sender will retry.',
    });
    expect(a.ms).toBeGreaterThanOrEqual(190);
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBeInstanceOf(DeadlineExceededError);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.error).toBeInstanceOf(DeadlineExceededError);
    expect(seen[0]!.info).toMatchObject({ phase: 'enqueue', dedupeKey: 'id:enq-slow' });
    failLate(new Error('late failure'));
    await new Promise((r) => setTimeout(r, 20));
    expect(seen.map((s) => (s.error as Error).message)).toContain('late failure');
    // The claim was released: the retry reaches the queue again instead of a 503 in_flight.
    expect((await send(srv.url, track('enq-slow'))).json.code).toBe('queue_unavailable');
    expect(seen.filter((s) => s.error instanceof DeadlineExceededError)).toHaveLength(2);
  });
});
