import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, ManualClock, type Emulator } from '@hookgate/emulator';
import { startCaptureReceiver, type CaptureReceiver } from '../helpers/capture-receiver.js';

const SECRET = 'whsec_test_9f8e7d';

describe('the request (seed §4.1, §5)', () => {
  const open: Array<{ close(): Promise<unknown> }> = [];
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
  });
  const start = async (...args: Parameters<typeof startCaptureReceiver>) => {
    const r = await startCaptureReceiver(...args);
    open.push(r);
    return r;
  };
  const emulatorFor = (
    receiver: CaptureReceiver,
    extra: Record<string, unknown> = {},
    secret: string | null = SECRET,
  ): Emulator => {
    const e = createEmulator({
      sources: [
        {
          writeKey: 'wk',
          webhooks: {
            enabled: true,
            endpoints: [
              { url: `${receiver.url}/in/hook?x=1`, headers: { Authorization: 'Bearer abc', 'X-Env': 'test' } },
            ],
            ...(secret ? { sharedSecret: secret } : {}),
          },
        },
      ],
      ...extra,
    });
    open.push(e);
    return e;
  };

  it('POSTs JSON with User-Agent, Content-Type, the static headers and X-Signature over exactly the bytes sent', async () => {
    const receiver = await start();
    const emulator = emulatorFor(receiver);
    const record = emulator.track({
      userId: 'u1',
      event: 'Café ☕ — 日本',
      properties: { n: 1.5, s: 'line\nbreak "quoted" \u2028' },
    });
    await emulator.drain();
    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0]!;
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/in/hook?x=1');
    expect(got.headers['user-agent']).toBe('Segment.io/1.0');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers.authorization).toBe('Bearer abc');
    expect(got.headers['x-env']).toBe('test');
    expect(got.headers['accept-encoding']).toBe('identity');
    expect(Number(got.headers['content-length'])).toBe(got.body.length);
    expect(got.rawHeaderNames).toContain('X-Signature');
    // An independent HMAC over the raw bytes the receiver read: lowercase hex SHA-1.
    const expected = createHmac('sha1', SECRET).update(got.body).digest('hex');
    expect(got.headers['x-signature']).toBe(expected);
    expect(got.headers['x-signature']).toMatch(/^[0-9a-f]{40}$/);
    // The record shows the same bytes, headers and signature.
    expect(Buffer.from(record.body, 'utf8').equals(got.body)).toBe(true);
    expect(record.signature).toBe(expected);
    expect(record.attempts[0]?.requestHeaders['X-Signature']).toBe(expected);
    expect(record.attempts[0]?.requestHeaders.Authorization).toBe('Bearer abc');
    expect(record.attempts[0]?.status).toBe(200);
  });

  it('sends no X-Signature without a shared secret, and the userAgent option replaces the User-Agent', async () => {
    const receiver = await start();
    const emulator = emulatorFor(receiver, { userAgent: 'Acme-Sender/2.0' }, null);
    const record = emulator.identify({ userId: 'u1' });
    await emulator.drain();
    expect(receiver.received[0]?.headers['x-signature']).toBeUndefined();
    expect(receiver.received[0]?.headers['user-agent']).toBe('Acme-Sender/2.0');
    expect(record.signature).toBeUndefined();
  });

  it("serialization: 'sorted' orders keys recursively and the signature still covers the exact bytes", async () => {
    const receiver = await start();
    const emulator = emulatorFor(receiver, { serialization: 'sorted' });
    emulator.track({ userId: 'u1', event: 'E', properties: { zeta: 1, alpha: { y: 2, b: 3 } } });
    await emulator.drain();
    const got = receiver.received[0]!;
    expect(got.text.startsWith('{"event":"E","properties":{"alpha":{"b":3,"y":2},"zeta":1},"timestamp":')).toBe(true);
    expect(got.headers['x-signature']).toBe(createHmac('sha1', SECRET).update(got.body).digest('hex'));
  });

  it('follows no redirect: a 3xx fails the record with reason redirect (default) and the target is never hit', async () => {
    const target = await start();
    const receiver = await start(() => ({ status: 307, headers: { Location: `${target.url}/moved` } }));
    const emulator = emulatorFor(receiver, { clock: new ManualClock() });
    const record = emulator.track({ userId: 'u1', event: 'E' });
    await emulator.drain();
    expect(target.received).toHaveLength(0);
    expect(receiver.received).toHaveLength(1);
    expect(record.state).toBe('failed');
    expect(record.attempts[0]?.error?.code).toBe('redirect');
    expect(record.attempts[0]?.error?.message).toContain(`Location: ${target.url}/moved`);
    expect(record.reason).toMatch(/redirect: 307 Temporary Redirect: redirects are not followed/);
  });

  it("responsePolicy.redirects: 'retry' retries a 3xx, still without following it", async () => {
    const target = await start();
    const receiver = await start((_, i) => (i < 2 ? { status: 301, headers: { Location: `${target.url}/x` } } : 200));
    const emulator = emulatorFor(receiver, { clock: new ManualClock(), responsePolicy: { redirects: 'retry' } });
    const record = emulator.track({ userId: 'u1', event: 'E' });
    await emulator.drain();
    expect(record.state).toBe('delivered');
    expect(record.attempts.map((a) => a.status)).toEqual([301, 301, 200]);
    expect(target.received).toHaveLength(0);
  });
});
