// The contract every examples/<framework>-receiver/server.ts keeps (the demo and the emulator's
// conformance suite import them): `start()` in-process, and one command as a script.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { allFixtures, sign, type WebhookMessage } from '@hookgate/core';

/** What each example's `start` returns. */
export interface RunningExample {
  url: string;
  secret: string;
  seen: WebhookMessage[];
  close(): Promise<void>;
}

/** Each example's `start`. */
export type StartExample = (options?: {
  port?: number;
  host?: string;
  secret?: string | string[];
  log?: boolean;
}) => Promise<RunningExample>;

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

async function post(url: string, message: unknown, secret: string): Promise<number> {
  const body = JSON.stringify(message);
  const res = await fetch(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-signature': sign(body, secret) },
  });
  await res.arrayBuffer();
  return res.status;
}

/**
 * Sends a request with a 64 KB header while its 4 MB body is still being sent (the case where Node's
 * default handling resets the connection), reads the answer 300 ms late, and returns its status line
 * (or 'reset').
 */
function oversizeHeaderStatus(url: string): Promise<string> {
  const { hostname, port, pathname } = new URL(url);
  const body = Buffer.alloc(4_000_000, 0x20);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(
        `POST ${pathname} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      socket.write(body);
      socket.pause();
      setTimeout(() => socket.resume(), 300);
    });
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    socket.on('error', () => resolve(text.startsWith('HTTP/') ? text.split('\r\n')[0]! : 'reset'));
    socket.on('close', () => resolve(text.split('\r\n')[0] || 'reset'));
  });
}

/** Waits until `read()` matches `pattern` (or fails after `ms`). */
async function waitFor(read: () => string, pattern: RegExp, ms = 20_000): Promise<RegExpExecArray> {
  const until = Date.now() + ms;
  for (;;) {
    const m = pattern.exec(read());
    if (m) return m;
    if (Date.now() > until) throw new Error(`no ${pattern} in the output within ${ms} ms:\n${read()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Defines the tests of one example: `name` is its folder under examples/, `defaultPort` its documented port. */
export function describeExample(name: string, start: StartExample, defaultPort: number): void {
  const script = `examples/${name}/server.ts`;

  describe(`${script}: start()`, () => {
    it('serves the documented URL shape, runs the handler for every message type in order, refuses bad signatures', async () => {
      const rx = await start({ port: 0, secret: 'example-secret', log: false });
      try {
        expect(rx.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
        expect(rx.secret).toBe('example-secret');
        const fixtures = allFixtures();
        for (const m of fixtures) expect(await post(rx.url, m, rx.secret)).toBe(200);
        expect(await post(rx.url, { ...fixtures[0], userId: 'intruder' }, 'not-the-secret')).toBe(401);
        expect(rx.seen).toEqual(fixtures);
      } finally {
        await rx.close();
      }
      await expect(fetch(rx.url)).rejects.toThrow();
    });

    it("answers a 64 KB header with 431 even while the body is still arriving, not a connection reset (the server's client errors are handled)", async () => {
      const rx = await start({ port: 0, secret: 'example-secret', log: false });
      try {
        expect(await oversizeHeaderStatus(rx.url)).toBe('HTTP/1.1 431 Request Header Fields Too Large');
      } finally {
        await rx.close();
      }
    });

    it('accepts both secrets of a rotation and generates a secret when none is given', async () => {
      const rotated = await start({ port: 0, secret: ['new-secret', 'old-secret'] });
      try {
        expect(rotated.secret).toBe('new-secret');
        const [a, b] = allFixtures();
        expect(await post(rotated.url, a, 'new-secret')).toBe(200);
        expect(await post(rotated.url, b, 'old-secret')).toBe(200);
        expect(rotated.seen).toEqual([a, b]);
      } finally {
        await rotated.close();
      }
      const generated = await start({ port: 0 });
      try {
        expect(generated.secret).toMatch(/^[0-9a-f]{48}$/);
        expect(await post(generated.url, allFixtures()[3], generated.secret)).toBe(200);
      } finally {
        await generated.close();
      }
    });
  });

  describe(`${script}: one command`, () => {
    let child: ChildProcess | undefined;
    afterEach(() => {
      child?.kill('SIGKILL');
      child = undefined;
    });

    it(`starts on PORT (documented default ${defaultPort}; 0 here), prints the URL and the secret, logs one line per message, stops on SIGTERM`, async () => {
      let output = '';
      child = spawn(process.execPath, ['--import', 'tsx', script], {
        cwd: ROOT,
        env: { ...process.env, PORT: '0', WEBHOOK_SECRET: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
      const url = (await waitFor(() => output, /URL:\s+(http:\/\/127\.0\.0\.1:\d+\/webhooks)/))[1]!;
      const secret = (await waitFor(() => output, /Secret:\s+([0-9a-f]{48}) \(generated/))[1]!;

      const [page, track] = [allFixtures()[0]!, allFixtures()[3]!];
      expect(await post(url, page, secret)).toBe(200);
      expect(await post(url, track, secret)).toBe(200);
      expect(await post(url, track, 'wrong')).toBe(401);
      await waitFor(() => output, /track\s+user_1001 "Order Completed"/);
      const messageLines = output.split('\n').filter((l) => /^\d{4}-\d\d-\d\dT.*Z\s{2}\S/.test(l));
      expect(messageLines).toHaveLength(2);
      expect(output).not.toContain(sign(JSON.stringify(track), secret)); // never logs a signature

      const exited = new Promise<number | null>((r) => child!.once('exit', (code) => r(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    });

    const tools = ['curl', 'openssl', 'bash'].every((t) => spawnSync('which', [t]).status === 0);
    (tools ? it : it.skip)('the curl command it prints sends a message the receiver accepts', async () => {
      let output = '';
      child = spawn(process.execPath, ['--import', 'tsx', script], {
        cwd: ROOT,
        env: { ...process.env, PORT: '0', WEBHOOK_SECRET: 'printed-curl-secret' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
      await waitFor(() => output, /Secret:\s+printed-curl-secret \(from WEBHOOK_SECRET\)/);
      const lines = (await waitFor(() => output, /(BODY=.*)\n\s+(curl .*\\)\n\s+(-H .*)\n/))
        .slice(1)
        .map((l) => l.trim());
      const command = `${lines[0]}\n${lines[1]!.replace(/\\$/, '')} ${lines[2]}`.replace(
        'curl -i',
        'curl -s -o /dev/null -w "%{http_code}"',
      );
      const ran = spawnSync('bash', ['-c', command], { encoding: 'utf8' });
      expect(ran.stdout).toBe('200');
      await waitFor(() => output, /track\s+u1 "Signed Up"/);
    });
  });
}
