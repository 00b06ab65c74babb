// answerClientError (src/receiver/client-errors.ts) reads Node's private `socket._httpMessage`, the
// response a connection is still answering: no public API gives a `clientError` handler that response.
// This file is the user-visible reason, kept beside the code. Without the read, the refusal is written
// at once, so on a keep-alive connection a pipelined request's 431 goes out BEFORE the answer to the
// request in front of it: the client reads "431" as the answer to its first request, and that
// request's real 200, written after the connection's end, is lost (checked: the first test fails that
// way with `answerInTurn` given `undefined` instead of `_httpMessage`). The other two guard what the
// same read decides for a request whose own body is still arriving: answered 408 at once on its own
// response (not made to wait for itself), and a client still uploading reads it without a reset.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { handleClientErrors } from '../src/index.js';

let server: http.Server | undefined;
afterEach(async () => {
  const s = server;
  server = undefined;
  if (s) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

async function listen(options: http.ServerOptions, handler: http.RequestListener): Promise<number> {
  const s = handleClientErrors(http.createServer(options, handler));
  server = s;
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return (s.address() as AddressInfo).port;
}

/** Writes raw bytes on one connection and returns everything read until the server closes it. */
function exchange(
  port: number,
  data: string,
  waitMs = 5_000,
  /** Keeps writing this every 20 ms after `data`, as a client still uploading does. */
  trickle?: string,
): Promise<{ text: string; reset: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let reset = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within ${waitMs} ms; read so far: ${JSON.stringify(text.slice(0, 200))}`));
    }, waitMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET') reset = true;
      else reject(error);
    });
    const writer = trickle === undefined ? undefined : setInterval(() => socket.write(trickle), 20);
    socket.on('close', () => {
      clearTimeout(timer);
      clearInterval(writer);
      resolve({ text, reset });
    });
    socket.write(data);
  });
}

const statusLines = (text: string) => text.match(/HTTP\/1\.1 \d{3} [^\r]*/g) ?? [];

describe('answerClientError and the response a connection is still answering', () => {
  it('keep-alive: a pipelined request with oversize headers gets its 431 after the answer to the request before it', async () => {
    const port = await listen({}, (req, res) => {
      req.resume();
      // The first request's answer takes a while (a handler doing its work): the 431 must wait for it.
      req.on('end', () =>
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '5' });
          res.end('first');
        }, 300),
      );
    });
    const first = 'POST /first HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}';
    const second = `GET /second HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`;
    const { text } = await exchange(port, first + second);
    expect(statusLines(text)).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 431 Request Header Fields Too Large']);
    expect(text.indexOf('first')).toBeLessThan(text.indexOf('HTTP/1.1 431'));
    expect(text).toContain('"code":"headers_too_large"');
  });

  it('a request whose body is still arriving at requestTimeout gets its 408 on its own response, at once', async () => {
    let handled = false;
    const port = await listen(
      { headersTimeout: 500, requestTimeout: 1_000, connectionsCheckingInterval: 100 },
      (req, res) => {
        req.resume();
        req.on('end', () => {
          handled = true;
          res.end('ok');
        });
      },
    );
    const started = Date.now();
    // 10 of the 100 bytes announced, then nothing: the handler waits for the rest.
    const { text, reset } = await exchange(
      port,
      `POST /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n${'x'.repeat(10)}`,
    );
    expect(statusLines(text)).toEqual(['HTTP/1.1 408 Request Timeout']);
    expect(text).toContain('"code":"request_timeout"');
    expect(text.toLowerCase()).toContain('connection: close');
    expect(reset).toBe(false);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(handled).toBe(false);
  });

  it('a client still uploading when its body times out reads the 408, not a reset', async () => {
    const port = await listen(
      { headersTimeout: 500, requestTimeout: 1_000, connectionsCheckingInterval: 100 },
      (req, res) => {
        // A handler that reads nothing yet (a queue, a slow start): the body piles up unread.
        setTimeout(() => res.end('late'), 10_000).unref();
      },
    );
    const { text, reset } = await exchange(
      port,
      `POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n`,
      8_000,
      'x'.repeat(16 * 1024),
    );
    expect(statusLines(text)).toEqual(['HTTP/1.1 408 Request Timeout']);
    expect(reset).toBe(false);
  });
});
