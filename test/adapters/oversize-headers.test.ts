// Oversize headers get 431, not a reset, on every set-up where the server is ours: Express (also after
// express.json()), Fastify, Hono on Node and core's node listener. Real sockets on 127.0.0.1, reading
// the status line. The hard case is a client still sending (a body after the headers) that reads its
// answer late: dropping the connection at once makes the kernel reset it, which can wipe the 431
// before the client reads it; answerClientError closes its side and drains the rest instead.
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import express from 'express';
import Fastify, { type FastifyInstance } from 'fastify';
import { Hono } from 'hono';
import { createAdaptorServer } from '@hono/node-server';
import { answerClientError, createReceiver, handleClientErrors, sign, toNodeListener } from '@hookgate/core';
import { hookgate as expressHookgate } from '@hookgate/express';
import { hookgate as fastifyHookgate, answerClientError as fastifyAnswer } from '@hookgate/fastify';
import { hookgate as honoHookgate, handleClientErrors as honoHandle } from '@hookgate/hono';
import { handleClientErrors as expressHandle } from '@hookgate/express';
import { listenOnLoopback, type RunningServer } from '../helpers/servers.js';

const SECRET = 'whsec_oversize_headers_5e1a';
const running: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (running.length) await running.pop()!();
});

interface Outcome {
  /** The first line the server sent, or '' when nothing was read. */
  statusLine: string;
  /** Whether the connection ended with a reset (ECONNRESET / EPIPE) instead of a clean close. */
  reset: boolean;
  /** The whole answer as text. */
  text: string;
}

/** Sends a request with `headerBytes` of one extra header, then `bodyBytes` of body, over a raw socket; reads only after `readAfterMs`. */
function rawRequest(
  port: number,
  {
    headerBytes,
    bodyBytes = 2,
    readAfterMs = 0,
    before = '',
    pipelined = false,
  }: { headerBytes: number; bodyBytes?: number; readAfterMs?: number; before?: string; pipelined?: boolean },
): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let reset = false;
    let sent = false;
    const body = bodyBytes === 2 ? Buffer.from('{}') : Buffer.alloc(bodyBytes, 0x20);
    const send = () => {
      sent = true;
      socket.write(
        `POST /webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Signature: ${sign('{}', SECRET)}\r\n` +
          `X-Padding: ${'a'.repeat(headerBytes)}\r\nConnection: close\r\nContent-Length: ${bodyBytes}\r\n\r\n`,
      );
      socket.write(body);
    };
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      // A keep-alive client sends its next request once the first answer is in.
      if (!sent && before && !pipelined && /\r\n\r\n[^]*\}/.test(text)) send();
    });
    socket.on(
      'error',
      (error: NodeJS.ErrnoException) => (reset ||= error.code === 'ECONNRESET' || error.code === 'EPIPE'),
    );
    socket.on('close', () => {
      // With a keep-alive request in front (`before`), the answer of interest is the second one.
      const answers = text.split(/(?=HTTP\/1\.1 \d{3} )/);
      const mine = before ? (answers[1] ?? '') : (answers[0] ?? '');
      resolve({ statusLine: mine.split('\r\n')[0] ?? '', reset, text });
    });
    socket.on('connect', () => {
      if (readAfterMs > 0) {
        socket.pause();
        setTimeout(() => socket.resume(), readAfterMs);
      }
      socket.write(before);
      if (!before || pipelined) send();
    });
  });
}

/** A small valid keep-alive request sent first on the same connection. */
const KEEP_ALIVE_FIRST = `POST /webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Signature: ${sign('{}', SECRET)}\r\nContent-Length: 2\r\n\r\n{}`;

async function serveNode(server: http.Server): Promise<number> {
  const served: RunningServer = await listenOnLoopback(server);
  running.push(() => served.close());
  return served.port;
}

async function serveFastify(app: FastifyInstance): Promise<number> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  running.push(() => app.close());
  return (app.server.address() as net.AddressInfo).port;
}

const onMessage = () => undefined;

const SETUPS: Record<string, () => Promise<number>> = {
  Express: () => {
    const app = express();
    app.all('/webhooks', expressHookgate({ secret: SECRET, onMessage }));
    return serveNode(expressHandle(http.createServer(app)));
  },
  'Express after express.json()': () => {
    const app = express();
    app.use(express.json());
    app.all('/webhooks', expressHookgate({ secret: SECRET, onMessage }));
    return serveNode(expressHandle(http.createServer(app)));
  },
  'Fastify (clientErrorHandler: answerClientError)': async () => {
    const app = Fastify({ clientErrorHandler: fastifyAnswer });
    await app.register(fastifyHookgate, { secret: SECRET, onMessage });
    return serveFastify(app);
  },
  'Hono on Node': () => {
    const app = new Hono();
    app.all('/webhooks', honoHookgate({ secret: SECRET, onMessage }));
    return serveNode(honoHandle(createAdaptorServer({ fetch: app.fetch }) as http.Server));
  },
  "core's node listener": () =>
    serveNode(
      handleClientErrors(
        http.createServer(toNodeListener(createReceiver({ secret: SECRET, onMessage })) as http.RequestListener),
      ),
    ),
};

describe.each(Object.entries(SETUPS))('%s', (_name, start) => {
  it('a 64 KB header → 431 with a JSON body and Connection: close', async () => {
    const port = await start();
    const out = await rawRequest(port, { headerBytes: 64 * 1024 });
    expect(out.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(out.text).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(out.text.split('\r\n\r\n')[1]!)).toMatchObject({ ok: false, code: 'headers_too_large' });
    expect(out.reset).toBe(false);
  });

  it('a 64 KB header then a 5 MB body, read 300 ms late → still 431, never a reset', async () => {
    const port = await start();
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () =>
        rawRequest(port, { headerBytes: 64 * 1024, bodyBytes: 5_000_000, readAfterMs: 300 }),
      ),
    );
    expect(outcomes.map((o) => o.statusLine)).toEqual(Array(5).fill('HTTP/1.1 431 Request Header Fields Too Large'));
    expect(outcomes.map((o) => o.reset)).toEqual(Array(5).fill(false));
  });

  it.each([false, true])(
    "the second request of a keep-alive connection (pipelined: %s) with a 64 KB header → 431, after the first one's answer",
    async (pipelined) => {
      const port = await start();
      const out = await rawRequest(port, { headerBytes: 64 * 1024, before: KEEP_ALIVE_FIRST, pipelined });
      expect(out.text).toMatch(/^HTTP\/1\.1 400 /); // the first: '{}' is signed, but not a message
      expect(out.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    },
  );

  it('a header just under the limit is not refused as too large', async () => {
    const port = await start();
    const out = await rawRequest(port, { headerBytes: 8 * 1024 });
    expect(out.statusLine).toMatch(/^HTTP\/1\.1 400 /); // reached the receiver: '{}' is not a message
  });
});

describe('answerClientError', () => {
  it('answers a malformed request 400 and lingers the same way', async () => {
    const port = await serveNode(handleClientErrors(http.createServer((_q, r) => r.end())));
    const out = await new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let text = '';
      socket.on('data', (c) => (text += c.toString('latin1')));
      socket.on('close', () => resolve(text));
    });
    expect(out.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(out.split('\r\n\r\n')[1]!)).toMatchObject({ code: 'bad_request' });
  });

  it('answers each connection once, and stays out of the way of a connection the client reset', () => {
    const writes: string[] = [];
    const socket = {
      destroyed: false,
      writable: true,
      write: (d: string) => void writes.push(d),
      end() {},
      destroy() {},
      resume() {},
      on() {},
    };
    answerClientError(Object.assign(new Error('x'), { code: 'HPE_HEADER_OVERFLOW' }), socket);
    answerClientError(Object.assign(new Error('x'), { code: 'HPE_HEADER_OVERFLOW' }), socket);
    expect(writes).toHaveLength(1);
    const reset = { ...socket, write: () => void writes.push('again') };
    answerClientError(Object.assign(new Error('x'), { code: 'ECONNRESET' }), reset);
    expect(writes).toHaveLength(1);
  });
});
