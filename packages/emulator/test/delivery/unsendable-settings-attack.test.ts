// What cannot be sent is refused at setup, naming the field and the character: header names and
// values (CR/LF/NUL and other controls, characters past U+00FF), user agents, and endpoint URLs as
// written (URL parsing would drop a TAB or CR/LF and send elsewhere). What can be sent goes out as
// written (a Latin-1 value as its one byte, to a raw TCP endpoint). And a send that fails before it
// starts (node:http refusing the request) is a failed attempt with its reason: drain() resolves and
// the endpoint's slot is freed, on the system clock and on a ManualClock.
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, ManualClock, SettingsError, type Clock, type EmulatorOptions } from '../../src/index.js';
import { DeliveryEngine } from '../../src/delivery/engine.js';
import { classicPolicy } from '../../src/delivery/response-policy.js';
import { bodyBytes, LoggedDelivery } from '../../src/log/delivery-record.js';
import { EventHub } from '../../src/log/events.js';
import { resolveOptions } from '../../src/options.js';

const open: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

function refusal(options: EmulatorOptions): SettingsError {
  try {
    createEmulator(options);
  } catch (e) {
    expect(e).toBeInstanceOf(SettingsError);
    return e as SettingsError;
  }
  throw new Error('createEmulator accepted it');
}

const withEndpoint = (endpoint: { url: string; headers?: Record<string, string> }, extra: EmulatorOptions = {}) => ({
  ...extra,
  sources: [{ writeKey: 'wk', webhooks: { enabled: true, endpoints: [endpoint] } }],
});
const URL_OK = 'http://127.0.0.1:9/hook';

describe('settings refuse what cannot be sent', () => {
  it.each([
    [
      'X-Team',
      '日本',
      /headers\["X-Team"\]: cannot be sent: its value contains "日" \(U\+65E5\) at index 0, past U\+00FF/,
    ],
    ['X-Price', '5 €', /headers\["X-Price"\].*"€" \(U\+20AC\) at index 2, past U\+00FF/],
    ['X-Evil', 'a\r\nX-Injected: 1', /headers\["X-Evil"\].*CR \(U\+000D\) at index 1/],
    ['X-Nul', 'a\u0000b', /headers\["X-Nul"\].*NUL \(U\+0000\) at index 1/],
    ['X-Bell', 'a\u0007', /headers\["X-Bell"\].*a control character \(U\+0007\) at index 1/],
    ['X Team', 'v', /headers\["X Team"\]: is not a valid header name: it contains a space \(U\+0020\) at index 1/],
    ['X-Téam', 'v', /headers\["X-Téam"\].*"é" \(U\+00E9\) at index 3/],
  ])('header %j: %j is refused, naming the header and the character', (name, value, message) => {
    const e = refusal(withEndpoint({ url: URL_OK, headers: { [name]: value } }));
    expect(e.setting).toBe(`sources[0].webhooks.endpoints[0].headers[${JSON.stringify(name)}]`);
    expect(e.message).toMatch(message);
  });

  it.each([
    ['Bot ✓', /"✓" \(U\+2713\) at index 4, past U\+00FF/],
    ['Bot\n1', /LF \(U\+000A\) at index 3/],
    ['Bot\u007f', /DEL \(U\+007F\) at index 3/],
  ])('userAgent %j is refused, naming the character', (userAgent, message) => {
    const e = refusal(withEndpoint({ url: URL_OK }, { userAgent }));
    expect(e.setting).toBe('userAgent');
    expect(e.message).toMatch(message);
  });

  it.each([
    ['http://127.0.0.1:9/ok\r\nX-Evil: 1', /CR \(U\+000D\) at index 21/],
    ['http://127.0.0.1:9/o\tk', /TAB \(U\+0009\) at index 20/],
    ['http://127.0.0.1:9/a b', /a space \(U\+0020\) at index 20.*%20/],
    [' http://127.0.0.1:9/hook', /a space \(U\+0020\) at index 0/],
    ['http://127.0.0.1:9/hook\u0085', /a control character \(U\+0085\)/],
  ])('endpoint URL %j is refused as written, not silently changed', (url, message) => {
    const e = refusal(withEndpoint({ url }));
    expect(e.setting).toBe('sources[0].webhooks.endpoints[0].url');
    expect(e.message).toMatch(message);
    expect(e.message).not.toMatch(/[\r\n\t]/);
  });

  it('a Latin-1 value and a TAB are sendable: they reach a raw endpoint as one byte each', async () => {
    const heads: Buffer[] = [];
    const server = net.createServer((socket) => {
      let head = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        head = Buffer.concat([head, chunk]);
        if (head.includes('\r\n\r\n') && head.length > head.indexOf('\r\n\r\n') + 4) {
          heads.push(head);
          socket.end('HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
        }
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    open.push(() => server.close());
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const emulator = createEmulator({
      ...withEndpoint({ url, headers: { 'X-Team': 'café\tbar' } }),
      userAgent: 'Bot/1.0 (ñ)',
    });
    open.push(() => emulator.close());
    const record = emulator.track({ userId: 'u1', event: 'E' });
    await emulator.drain();
    expect(record.state).toBe('delivered');
    const head = heads[0]?.toString('latin1') ?? '';
    expect(head).toContain('\r\nX-Team: caf\u00e9\tbar\r\n');
    expect(head).toContain('User-Agent: Bot/1.0 (\u00f1)\r\n');
    expect(heads[0]?.includes(Buffer.from([0xc3, 0xa9]))).toBe(false); // é as 0xE9, not UTF-8
  });
});

describe('a send that fails before it starts', () => {
  for (const clockName of ['system clock', 'ManualClock'] as const) {
    it(`is a failed attempt with its reason; drain() resolves; the slot is freed (${clockName})`, async () => {
      const clock: Clock | undefined = clockName === 'ManualClock' ? new ManualClock() : undefined;
      // Past the settings check (which refuses it): the engine meets a request node:http will not write.
      const options = resolveOptions({ concurrency: 1, ...(clock ? { clock } : {}) });
      const events = new EventHub();
      const engine = new DeliveryEngine(options, events, undefined);
      open.push(() => engine.close([]));
      const endpoints = [{ url: URL_OK, parsed: new URL(URL_OK), headers: { 'X-Team': '日本' } }];
      const source = { writeKey: 'wk', name: undefined, sharedSecret: undefined, endpoints };
      const records = [1, 2, 3].map(
        (seq) =>
          new LoggedDelivery({
            seq,
            state: 'pending',
            type: 'track',
            source,
            origin: 'call',
            bytes: bodyBytes('{}'),
            signature: undefined,
            receivedMs: 0,
            reason: undefined,
            replayOf: undefined,
          }),
      );
      const policy = classicPolicy(options.responsePolicy);
      // Three records behind one slot (concurrency 1): each must free it for the next.
      expect(() => records.forEach((r) => engine.deliver(r, policy))).not.toThrow();
      await engine.drain();
      for (const record of records) {
        expect(record.state).toBe('failed');
        expect(record.attempts).toHaveLength(1);
        expect(record.attempts[0]?.outcome).toBe('fail');
        expect(record.attempts[0]?.error).toMatchObject({ code: 'aborted', cause: 'ERR_INVALID_CHAR' });
        expect(record.attempts[0]?.error?.message).toMatch(/could not be written, nothing was sent.*X-Team/);
      }
      expect(engine.idle).toBe(true);
    });
  }
});
