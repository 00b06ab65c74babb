// handleClientErrors / answerClientError on core's node listener, over raw sockets on 127.0.0.1: what a
// client gets for a request Node refuses before any handler runs (431, 408, 400), the exact answer (status
// line, headers, JSON body), the lingering close, the order on a keep-alive connection, and that nothing
// after a refused request reaches a handler.
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createReceiver, fixtures, handleClientErrors, toNodeListener } from '../src/index.js';
import { CLIENT_ERROR_LINGER_MS } from '../src/adapter.js';
import { listenOnLoopback, type RunningServer } from '../../../test/helpers/servers.js';
import { hmac } from './helpers/receiver-server.js';

const SECRET = 'whsec_client_errors_91c3';
const MESSAGE = JSON.stringify({ ...fixtures.track, messageId: 'ce-1' });

let served: RunningServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** Serves a receiver (its handler waits `handlerMs`) with handleClientErrors; records the messages handled. */
async function serve(options: http.ServerOptions = {}, handlerMs = 0): Promise<{ port: number; handled: string[] }> {
  const handled: string[] = [];
  const receiver = createReceiver({
    secret: SECRET,
    dedupe: false,
    onMessage: async (msg) => {
      await new Promise((resolve) => setTimeout(resolve, handlerMs));
      handled.push(msg.type);
    },
  });
  const server = http.createServer(options, toNodeListener(receiver) as http.RequestListener);
  expect(handleClientErrors(server)).toBe(server);
  served = await listenOnLoopback(server);
  return { port: served.port, handled };
}

function request(body: string, extraHeaders = ''): string {
  return (
    `POST /webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Signature: ${hmac(body, SECRET)}\r\n` +
    `${extraHeaders}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

interface Exchange {
  /** Everything the server sent. */
  text: string;
  /** Whether the connection ended with a reset instead of a clean close. */
  reset: boolean;
  /** Milliseconds from connecting to the close. */
  ms: number;
}

/** Writes `parts` (a number: a pause in ms) over a raw socket, keeps it open (writing `trickle` every 50 ms if given) until the server closes it. */
function exchange(port: number, parts: Array<string | number>, trickle?: string): Promise<Exchange> {
  return new Promise((resolve) => {
    const started = performance.now();
    // Half-open: the client goes on writing after the server's FIN, as a client still sending a body does.
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: trickle !== undefined });
    let text = '';
    let reset = false;
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', (error: NodeJS.ErrnoException) => (reset ||= error.code === 'ECONNRESET'));
    socket.on('end', () => trickle === undefined || socket.destroyed || socket.write(trickle));
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ text, reset, ms: performance.now() - started });
    });
    socket.on('connect', () => {
      void (async () => {
        for (const part of parts) {
          if (typeof part === 'number') await new Promise((r) => setTimeout(r, part));
          else if (!socket.destroyed) socket.write(part);
        }
        if (trickle !== undefined) timer = setInterval(() => socket.destroyed || socket.write(trickle), 50);
      })();
    });
  });
}

/** The answers in a stream of HTTP/1.1 responses: status line, lower-cased headers, body. */
function answers(text: string): Array<{ statusLine: string; headers: Record<string, string>; body: string }> {
  return text
    .split(/(?=HTTP\/1\.1 \d{3} )/)
    .filter(Boolean)
    .map((one) => {
      const [head = '', body = ''] = one.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      return { statusLine, headers, body };
    });
}

describe('a request Node refuses before the receiver sees it', () => {
  it('oversize headers → 431 with the JSON answer, its exact length and Connection: close; a clean close', async () => {
    const { port, handled } = await serve();
    const out = await exchange(port, [request(MESSAGE, `X-Padding: ${'a'.repeat(64 * 1024)}\r\n`)]);
    const [a, more] = answers(out.text);
    expect(more).toBeUndefined();
    expect(a!.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(a!.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(a!.headers['connection']).toBe('close');
    expect(a!.headers['content-length']).toBe(String(a!.body.length));
    expect(JSON.parse(a!.body)).toEqual({
      ok: false,
      code: 'headers_too_large',
      message: "The request headers are larger than the server's limit (Node's maxHeaderSize, 16 KB by default).",
    });
    expect(out.reset).toBe(false);
    expect(handled).toEqual([]);
  });

  it('a malformed request → 400 bad_request; the valid request pipelined after it never reaches a handler', async () => {
    const { port, handled } = await serve();
    const out = await exchange(port, ['NOT HTTP AT ALL\r\n\r\n', request(MESSAGE)]);
    const [a, more] = answers(out.text);
    expect(more).toBeUndefined();
    expect(a!.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(a!.body)).toEqual({ ok: false, code: 'bad_request', message: 'The request is not valid HTTP.' });
    expect(handled).toEqual([]);
  });

  it('headers slower than headersTimeout → 408 request_timeout', async () => {
    const { port } = await serve({ headersTimeout: 300, requestTimeout: 600, connectionsCheckingInterval: 50 });
    const out = await exchange(port, ['POST /webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\n']);
    const [a] = answers(out.text);
    expect(a!.statusLine).toBe('HTTP/1.1 408 Request Timeout');
    expect(a!.headers['connection']).toBe('close');
    expect(JSON.parse(a!.body)).toEqual({
      ok: false,
      code: 'request_timeout',
      message: 'The request did not arrive in time.',
    });
  });

  it('a body slower than requestTimeout → 408 on its own response (not a hang), JSON with its length', async () => {
    const { port, handled } = await serve({
      headersTimeout: 300,
      requestTimeout: 600,
      connectionsCheckingInterval: 50,
    });
    const whole = request(MESSAGE);
    // The head and half the body, then nothing: the receiver waits for the rest.
    const out = await exchange(port, [whole.slice(0, whole.length - 10)]);
    const [a, more] = answers(out.text);
    expect(more).toBeUndefined();
    expect(a!.statusLine).toMatch(/^HTTP\/1\.1 408 /);
    expect(a!.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(a!.headers['connection']).toBe('close');
    expect(a!.headers['content-length']).toBe(String(a!.body.length));
    expect(JSON.parse(a!.body)).toMatchObject({ ok: false, code: 'request_timeout' });
    expect(out.ms).toBeLessThan(5_000);
    expect(handled).toEqual([]);
  });

  it('a client that keeps sending after the refusal reads it, and is closed within the linger time', async () => {
    const { port } = await serve();
    const out = await exchange(port, [request(MESSAGE, `X-Padding: ${'a'.repeat(64 * 1024)}\r\n`)], 'x'.repeat(512));
    expect(answers(out.text)[0]!.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(out.ms).toBeGreaterThanOrEqual(CLIENT_ERROR_LINGER_MS - 100);
    expect(out.ms).toBeLessThan(CLIENT_ERROR_LINGER_MS + 3_000);
  });
});

describe('on a keep-alive connection', () => {
  it('the refusal of a second request comes after the first one’s answer, which the handler still gives', async () => {
    const { port, handled } = await serve({}, 300);
    const out = await exchange(port, [
      request(MESSAGE),
      20,
      request(MESSAGE, `X-Padding: ${'a'.repeat(64 * 1024)}\r\n`),
    ]);
    const [first, second, more] = answers(out.text);
    expect(first!.statusLine).toBe('HTTP/1.1 200 OK');
    expect(JSON.parse(first!.body)).toMatchObject({ ok: true });
    expect(second!.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(more).toBeUndefined();
    expect(handled).toEqual(['track']);
  });

  it('a connection whose answer is in progress is closed, never given a second status line', async () => {
    // A handler that writes its head, then lingers: the malformed request after it cannot be answered.
    const server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
      setTimeout(() => res.end('-done'), 400);
    });
    handleClientErrors(server);
    served = await listenOnLoopback(server);
    const out = await exchange(served.port, [
      'POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n',
      50,
      'NOT HTTP AT ALL\r\n\r\n',
    ]);
    expect(out.text).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(out.text).not.toMatch(/HTTP\/1\.1 400/);
    expect(out.text).not.toContain('-done');
  });
});
