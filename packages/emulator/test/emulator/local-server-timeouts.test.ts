// Time limits of the servers hookgate starts itself, over real sockets: headers trickled one byte
// every 0.5 s are cut off within the bound (small in these tests, through the option), the defaults
// are at most 10 s for headers, and `serve` (spawned, at its defaults) cuts a trickle off by then.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, listenIntake, startListener } from '../../src/index.js';
import { DEFAULT_SERVER_TIMEOUTS } from '../../src/server-timeouts.js';
import { startCliFromSources } from '../helpers/local-http.js';

const open: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/**
 * Trickles a request's headers one byte every `everyMs` and resolves when the server ends the
 * connection: after how long, and what it answered.
 */
function trickle(
  port: number,
  path: string,
  everyMs = 500,
  giveUpMs = 30_000,
): Promise<{ ms: number; answer: string }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    const text = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Slow: ${'a'.repeat(200)}\r\n\r\n`;
    let i = 0;
    let answer = '';
    const timer = setInterval(() => {
      if (Date.now() - started > giveUpMs) {
        clearInterval(timer);
        socket.destroy();
        reject(new Error(`still reading headers after ${giveUpMs} ms`));
        return;
      }
      if (!socket.destroyed && socket.writable && i < text.length) socket.write(text[i++] as string);
    }, everyMs);
    socket.on('data', (c) => (answer += c.toString('latin1')));
    const done = () => {
      clearInterval(timer);
      resolve({ ms: Date.now() - started, answer });
    };
    socket.on('close', done);
    socket.on('error', () => undefined);
  });
}

describe('headers trickled one byte per 0.5 s are cut off within the bound', () => {
  it("serve's intake (and its inspector, same server): 408 within headersMs + the check interval", async () => {
    const emulator = createEmulator({ sources: [{ writeKey: 'wk' }] });
    open.push({ close: () => emulator.close() });
    const intake = await listenIntake(emulator, { timeouts: { headersMs: 1500 } });
    open.push(intake);
    const [track, page] = await Promise.all([
      trickle(intake.port, '/v1/track'),
      trickle(intake.port, '/_hookgate/deliveries'),
    ]);
    for (const cut of [track, page]) {
      expect(cut.ms).toBeGreaterThanOrEqual(1400);
      expect(cut.ms).toBeLessThan(1500 + 400 + 1500); // the bound, Node's check interval (375 ms), a margin for a loaded machine
      expect(cut.answer).toMatch(/^HTTP\/1\.1 408/);
    }
  }, 20_000);

  it('listen: 408 within headersMs + the check interval', async () => {
    const listener = await startListener({ secret: 's3cret', timeouts: { headersMs: 1500 } });
    open.push(listener);
    const cut = await trickle(listener.port, '/hook');
    expect(cut.ms).toBeGreaterThanOrEqual(1400);
    expect(cut.ms).toBeLessThan(1500 + 400 + 1500);
    expect(cut.answer).toMatch(/^HTTP\/1\.1 408/);
  }, 20_000);

  it('a body trickled past requestMs is cut off too (408), on listen and the intake', async () => {
    const listener = await startListener({ secret: 's3cret', timeouts: { headersMs: 1000, requestMs: 2000 } });
    open.push(listener);
    const emulator = createEmulator({ sources: [{ writeKey: 'wk' }] });
    open.push({ close: () => emulator.close() });
    const intake = await listenIntake(emulator, { timeouts: { headersMs: 1000, requestMs: 2000 } });
    open.push(intake);
    const slowBody = (port: number, path: string) =>
      new Promise<{ ms: number; answer: string }>((resolve) => {
        const started = Date.now();
        const socket = net.connect(port, '127.0.0.1');
        let out = '';
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`,
        );
        const timer = setInterval(() => socket.writable && socket.write('a'), 200);
        socket.on('data', (c) => (out += c.toString('latin1')));
        socket.on('close', () => {
          clearInterval(timer);
          resolve({ ms: Date.now() - started, answer: out });
        });
        socket.on('error', () => undefined);
      });
    const cuts = await Promise.all([slowBody(listener.port, '/hook'), slowBody(intake.port, '/v1/track')]);
    for (const cut of cuts) {
      expect(cut.ms).toBeGreaterThanOrEqual(1900);
      expect(cut.ms).toBeLessThan(2000 + 400 + 2000);
      expect(cut.answer).toMatch(/^HTTP\/1\.1 408/);
    }
    expect(emulator.deliveries).toEqual([]);
  }, 20_000);

  it('close() does not wait out the keep-alive time of a request answered while closing, on listen and the intake', async () => {
    const timeouts = { keepAliveMs: 10_000 };
    const listener = await startListener({ secret: 's3cret', timeouts });
    const emulator = createEmulator({ sources: [{ writeKey: 'wk' }] });
    open.push({ close: () => emulator.close() });
    const intake = await listenIntake(emulator, { timeouts });
    // Half the body arrives, the server starts closing, then the rest: the answer comes after the close
    // began, on a keep-alive connection the client keeps open.
    const closeDuringRequest = async (server: { port: number; close(): Promise<unknown> }, path: string) => {
      const socket = net.connect(server.port, '127.0.0.1');
      socket.on('error', () => undefined);
      let answer = '';
      socket.on('data', (c) => (answer += c.toString('latin1')));
      try {
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{`,
        );
        await new Promise((r) => setTimeout(r, 100));
        const started = Date.now();
        const closed = server.close();
        socket.write('}');
        await expect.poll(() => answer, { timeout: 5_000 }).toMatch(/^HTTP\/1\.1 \d{3}/);
        await closed;
        return { ms: Date.now() - started, answer };
      } finally {
        socket.destroy();
      }
    };
    for (const [server, path] of [
      [listener, '/hook'],
      [intake, '/v1/track'],
    ] as const) {
      const { ms, answer } = await closeDuringRequest(server, path);
      expect(answer, path).toMatch(/connection: keep-alive/i);
      expect(ms, path).toBeLessThan(5_000);
    }
  }, 40_000);

  it('bad time limits are refused, naming the option', async () => {
    await expect(startListener({ secret: 's', timeouts: { headersMs: 0 } })).rejects.toThrow(
      /timeouts\.headersMs must be a whole number/,
    );
    const emulator = createEmulator({ sources: [{ writeKey: 'wk' }] });
    open.push({ close: () => emulator.close() });
    await expect(listenIntake(emulator, { timeouts: { headersMs: 5000, requestMs: 1000 } })).rejects.toThrow(
      /timeouts\.requestMs \(1000\) must not be below timeouts\.headersMs/,
    );
  });
});

describe('the defaults', () => {
  it('headers within 10 s at most, the request and keep-alive bounded, on the intake and listen', async () => {
    expect(DEFAULT_SERVER_TIMEOUTS.headersMs).toBeLessThanOrEqual(10_000);
    const emulator = createEmulator({ sources: [{ writeKey: 'wk' }] });
    open.push({ close: () => emulator.close() });
    const intake = await listenIntake(emulator);
    open.push(intake);
    const listener = await startListener({ secret: 's3cret' });
    open.push(listener);
    for (const server of [intake.server, listener.server]) {
      expect(server.headersTimeout).toBeGreaterThan(0);
      expect(server.headersTimeout).toBeLessThanOrEqual(10_000);
      expect(server.requestTimeout).toBeGreaterThan(0);
      expect(server.requestTimeout).toBeLessThanOrEqual(60_000);
      expect(server.keepAliveTimeout).toBeGreaterThan(0);
      expect(server.keepAliveTimeout).toBeLessThanOrEqual(60_000);
    }
  });

  it('hookgate serve (spawned, default limits) cuts a trickle off within 10 s (plus the 1 s check), and --help says so', async () => {
    const serve = startCliFromSources(['serve', '--port', '0', '--endpoint', 'http://127.0.0.1:9/hook']);
    open.push({ close: async () => void (serve.child.exitCode === null && serve.child.kill('SIGKILL')) });
    const port = Number((await serve.waitFor(/listening on http:\/\/127\.0\.0\.1:(\d+)/))[1]);
    const cut = await trickle(port, '/v1/track', 500, 30_000);
    expect(cut.ms).toBeGreaterThanOrEqual(9_500);
    expect(cut.ms).toBeLessThan(10_000 + 1000 + 2000);
    expect(cut.answer).toMatch(/^HTTP\/1\.1 408/);
    serve.child.kill('SIGINT');
    await serve.exited;
    for (const command of ['serve', 'listen']) {
      const help = startCliFromSources([command, '--help']);
      expect(await help.exited).toBe(0);
      expect(help.out()).toMatch(/request headers must arrive within 10 s and the whole request within 30 s/);
    }
  }, 60_000);
});
