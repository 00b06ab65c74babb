// Host and Origin variants an outside probe tries, over raw sockets (no client normalizes them):
// DNS-rebinding names that look local, IPv4-mapped and upper-case forms, trailing dots, ports; and the
// Origins a page can send. The decisions: a name is loopback only when it is exactly localhost, a
// 127.x address or [::1] / [::ffff:127.x] (a trailing dot, a suffix or another spelling is not); a
// loopback origin is loopback whatever its port (a local app on another port is the case the
// tracking API serves); `null` (sandboxed and file pages) is not loopback.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';
import { createEmulator, listenIntake, startListener, type Emulator, type IntakeServer } from '../../src/index.js';

const WRITE_KEY = 'wk_variants_0123456789';

/** One request on its own connection; the status line's code. */
function statusOf(port: number, request: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let out = '';
    socket.on('data', (c: Buffer) => (out += c.toString('latin1')));
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(out)?.[1] ?? 0)));
    socket.on('error', reject);
    socket.write(request);
  });
}

let rx: RunningServer;
let emulator: Emulator;
let intake: IntakeServer;
let listener: Awaited<ReturnType<typeof startListener>>;
beforeAll(async () => {
  rx = await startHttpServer((req, res) => void (req.resume(), req.on('end', () => res.end('{}'))));
  emulator = createEmulator({
    sources: [{ writeKey: WRITE_KEY, webhooks: { enabled: true, endpoints: [{ url: `${rx.url}/hook` }] } }],
  });
  intake = await listenIntake(emulator);
  listener = await startListener({ secret: 'variants-secret' });
});
afterAll(async () => {
  await listener.close();
  await intake.close();
  await emulator.close();
  await rx.close();
});

const HOSTS: Array<[string, number]> = [
  ['localhost.evil.com', 403],
  ['127.0.0.1.nip.io', 403],
  ['localhost.', 403],
  ['127.0.0.1.', 403],
  ['2130706433', 403], // 127.0.0.1 as one number: resolvable by some clients, not a loopback spelling here
  ['0x7f000001', 403],
  ['127.1', 403],
  ['evil.com@localhost', 403],
  ['localhost:abc', 403],
  ['', 403],
  ['LOCALHOST', 200],
  ['localhost:1', 200],
  ['127.0.0.1:65535', 200],
  ['127.5.6.7', 200],
  ['[::1]', 200],
  ['[::ffff:127.0.0.1]', 200],
];

describe('Host variants on the views of serve and listen', () => {
  for (const [host, expected] of HOSTS) {
    it(`Host ${JSON.stringify(host)} → ${expected}`, async () => {
      const request = (path: string) => `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
      expect(await statusOf(intake.port, request('/_hookgate/deliveries'))).toBe(expected);
      expect(await statusOf(listener.port, request('/_hookgate/inbound'))).toBe(expected);
    });
  }
});

const ORIGINS: Array<[string, number]> = [
  ['null', 403],
  ['http://127.0.0.1.evil.com', 403],
  ['http://localhost.evil.com:3000', 403],
  ['http://localhost.', 403],
  ['http://[::ffff:127.0.0.1]', 403], // a browser never sends this spelling (it writes [::ffff:7f00:1]); refused either way
  ['https://evil.com', 403],
  ['http://localhost@evil.com', 403],
  ['file://', 403],
  ['chrome-extension://abcdefghijklmnop', 403],
  ['http://localhost, https://evil.com', 403],
  ['http://localhost:1234', 200],
  ['http://127.0.0.1:80', 200],
  ['http://[::1]:3000', 200],
  ['https://localhost', 200],
];

describe('Origin variants on the tracking API', () => {
  for (const [origin, expected] of ORIGINS) {
    it(`Origin ${JSON.stringify(origin)} → ${expected}`, async () => {
      const body = JSON.stringify({ writeKey: WRITE_KEY, userId: 'u1', event: `Origin ${origin}` });
      const status = await statusOf(
        intake.port,
        `POST /v1/track HTTP/1.1\r\nHost: 127.0.0.1:${intake.port}\r\nOrigin: ${origin}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      expect(status).toBe(expected);
    });
  }

  it('without Origin: Sec-Fetch-Site cross-site is refused; same-site, same-origin, none and no header at all are served', async () => {
    const post = (fetchSite: string | undefined) => {
      const body = JSON.stringify({ writeKey: WRITE_KEY, userId: 'u1', event: `Fetch site ${fetchSite}` });
      return statusOf(
        intake.port,
        `POST /v1/track HTTP/1.1\r\nHost: 127.0.0.1:${intake.port}\r\n${fetchSite === undefined ? '' : `Sec-Fetch-Site: ${fetchSite}\r\n`}Content-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    };
    expect(await post('cross-site')).toBe(403);
    for (const site of ['same-site', 'same-origin', 'none', undefined])
      expect(await post(site), String(site)).toBe(200);
    await emulator.drain();
    const events = emulator.deliveries.map((r) => (r.message as { event?: string } | undefined)?.event);
    expect(events).not.toContain('Fetch site cross-site');
    // Refused means never recorded nor delivered.
    for (const [origin, expected] of ORIGINS)
      if (expected === 403) expect(events, origin).not.toContain(`Origin ${origin}`);
  });
});
