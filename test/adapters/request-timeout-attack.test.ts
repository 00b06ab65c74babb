// A request whose BODY is still arriving when the server's requestTimeout fires, on servers set up the
// way the READMEs say (handleClientErrors / Fastify's clientErrorHandler: answerClientError). Node
// reports it as a client error on the connection whose current response is that very request's: the
// answer must be a 408 on that response (Connection: close), not a wait for it to finish (which never
// came: the client hung until it gave up). Then the connection closes lingering, so a client still
// writing reads the 408 instead of a reset. Clients run in their own process over raw sockets.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { createReceiver, handleClientErrors, toNodeListener } from '@hookgate/core';
import { hookgate as expressHookgate } from '@hookgate/express';
import { answerClientError, hookgate as fastifyHookgate } from '@hookgate/fastify';
import { hookgate as honoHookgate } from '@hookgate/hono';
import type { RawOutcome, RawPlan } from './raw-attack-client.js';
import { runOutcomesProcess } from '../helpers/outcomes-process.js';

const CLIENT = fileURLToPath(new URL('./raw-attack-client.ts', import.meta.url));
const SECRET = 'whsec_request_timeout_attack';
const REQUEST_MS = 2_000;
// The READMEs' settings, with requestTimeout shorter so the test is quick (and below the 4 s deadline,
// so the webhook route's own 503 cannot be what answers).
const limits: http.ServerOptions = {
  headersTimeout: 1_000,
  requestTimeout: REQUEST_MS,
  connectionsCheckingInterval: 250,
  keepAliveTimeout: 5_000,
};

interface Running {
  port: number;
  /** Requests whose handler ran to the end (a refused request must not). */
  handled: string[];
  close(): Promise<void>;
}

function listening(server: http.Server, handled: string[]): Promise<Running> {
  return new Promise((resolve) => {
    const ready = () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        handled,
        close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
      });
    if (server.listening) ready();
    else server.once('listening', ready);
  });
}

/** Each set-up: the hookgate route at /webhooks and a route of the user's own at /upload that reads its body its framework's way. */
const SETUPS: Array<{ name: string; start(): Promise<Running> }> = [
  {
    name: "node:http with core's toNodeListener (handleClientErrors)",
    start() {
      const handled: string[] = [];
      const webhooks = toNodeListener(
        createReceiver({ secret: SECRET, onMessage: () => void handled.push('webhook') }),
      );
      const server = http.createServer(limits, (req, res) => {
        if (req.url !== '/upload') return void webhooks(req, res);
        void (async () => {
          let n = 0;
          for await (const chunk of req) n += (chunk as Buffer).length;
          handled.push(`upload ${n}`);
          if (!res.headersSent) res.end('stored');
        })().catch(() => undefined); // an aborted upload
      });
      return listening(handleClientErrors(server).listen(0, '127.0.0.1'), handled);
    },
  },
  {
    name: 'Express (handleClientErrors(http.createServer(limits, app)))',
    start() {
      const handled: string[] = [];
      const app = express();
      app.post('/upload', express.raw({ type: '*/*', limit: '10mb' }), (req, res) => {
        handled.push(`upload ${(req.body as Buffer).length}`);
        res.send('stored');
      });
      app.all('/webhooks', expressHookgate({ secret: SECRET, onMessage: () => void handled.push('webhook') }));
      return listening(handleClientErrors(http.createServer(limits, app)).listen(0, '127.0.0.1'), handled);
    },
  },
  {
    name: 'Fastify (clientErrorHandler: answerClientError)',
    async start() {
      const handled: string[] = [];
      const app = Fastify({
        http: { headersTimeout: 1_000, connectionsCheckingInterval: 250 },
        requestTimeout: REQUEST_MS,
        keepAliveTimeout: 5_000,
        clientErrorHandler: answerClientError,
      });
      await app.register(fastifyHookgate, { secret: SECRET, onMessage: () => void handled.push('webhook') });
      app.post('/upload', async (request) => {
        handled.push(`upload ${String(request.body).length}`);
        return 'stored';
      });
      await app.listen({ host: '127.0.0.1', port: 0 });
      return {
        port: (app.server.address() as AddressInfo).port,
        handled,
        close: async () => void (app.server.closeAllConnections(), await app.close()),
      };
    },
  },
  {
    name: '@hono/node-server (serverOptions, handleClientErrors)',
    start() {
      const handled: string[] = [];
      const app = new Hono();
      app.post('/upload', async (c) => {
        const text = await c.req.text();
        handled.push(`upload ${text.length}`);
        return c.text('stored');
      });
      app.all('/webhooks', honoHookgate({ secret: SECRET, onMessage: () => void handled.push('webhook') }));
      const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0, serverOptions: limits }) as http.Server;
      return listening(handleClientErrors(server), handled);
    },
  },
];

function clients(plans: RawPlan[]): Promise<RawOutcome[]> {
  return runOutcomesProcess<RawOutcome[]>(CLIENT, plans);
}

/** A request head with a 1,000-byte body declared, and its first bytes; the rest trickles. */
function slowBody(port: number, path: string, contentType: string, { readFromMs = 0 } = {}): RawPlan {
  const start = path === '/webhooks' ? '{"type":"track","userId":"u1","event":"' : 'a';
  return {
    port,
    send: `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: ${contentType}\r\nX-Signature: ${'ab'.repeat(20)}\r\nContent-Length: 1000\r\n\r\n${start}`,
    // A byte every 100 ms: the 1,000 bytes would take 100 s.
    trickle: { byte: 'a', everyMs: 100, untilMs: readFromMs > 0 ? readFromMs : 8_000 },
    readFromMs,
    waitMs: 9_000,
  };
}

let running: Running | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('a body still arriving at requestTimeout is answered 408 on its own response', () => {
  for (const setup of SETUPS) {
    it(`${setup.name}: the webhook route and the user's own upload route, read at once and read late`, async () => {
      running = await setup.start();
      const { port } = running;
      const outcomes = await clients([
        slowBody(port, '/webhooks', 'application/json'),
        slowBody(port, '/upload', 'text/plain'),
        // Writes on until 700 ms past the timeout before reading anything: a server that closed at once
        // would have reset the connection under it and the 408 would be lost.
        slowBody(port, '/webhooks', 'application/json', { readFromMs: REQUEST_MS + 700 }),
        slowBody(port, '/upload', 'text/plain', { readFromMs: REQUEST_MS + 700 }),
        // Sends the rest of its body once answered: the refused request must not complete and run the handler.
        { ...slowBody(port, '/upload', 'text/plain'), completeBodyTo: 1000, halfOpen: true },
      ]);
      for (const [i, o] of outcomes.entries()) {
        const where = `client ${i}: ${JSON.stringify(o)}`;
        expect(o.statuses, where).toEqual([408]);
        expect(o.error, where).toBeUndefined();
        expect(o.received, where).toMatch(/\r\nconnection: close\r\n/i);
        expect(o.received, where).toContain('"code":"request_timeout"');
        if (i < 2) {
          // The timeout, plus at most one 250 ms check, plus load; not the 4 s deadline, not never.
          expect(o.firstByteMs, where).toBeGreaterThanOrEqual(REQUEST_MS - 100);
          expect(o.firstByteMs, where).toBeLessThan(REQUEST_MS + 1_500);
        }
        expect(o.closedMs, where).toBeGreaterThan(0); // the server closed the connection
      }
      await new Promise((r) => setTimeout(r, 300));
      expect(running.handled).toEqual([]); // no handler took the cut-off body as whole
      // The server is still up and answering.
      const after = await fetch(`http://127.0.0.1:${port}/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(after.status).toBe(401);
    }, 30_000);
  }
});

describe('a malformed chunked body is answered 400 at once, on its own response', () => {
  for (const setup of SETUPS) {
    it(`${setup.name}: a bad chunk size on the webhook route and on the upload route`, async () => {
      running = await setup.start();
      const { port } = running;
      const bad = (path: string, type: string): RawPlan => ({
        port,
        // The head is whole, so a handler is already waiting for this body when the parser fails on it.
        send: `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: ${type}\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\nzz\r\n`,
        waitMs: 3_000,
      });
      const outcomes = await clients([bad('/webhooks', 'application/json'), bad('/upload', 'text/plain')]);
      for (const o of outcomes) {
        expect(o.statuses, JSON.stringify(o)).toEqual([400]);
        expect(o.received).toContain('"code":"bad_request"');
        expect(o.firstByteMs).toBeLessThan(1_000); // not at requestTimeout, not never
      }
      expect(running.handled).toEqual([]);
    }, 30_000);
  }
});

describe('around the refusal', () => {
  function nodeServer(
    handler: (req: http.IncomingMessage, res: http.ServerResponse, handled: string[]) => void,
  ): Promise<Running> {
    const handled: string[] = [];
    const server = http.createServer(limits, (req, res) => handler(req, res, handled));
    return listening(handleClientErrors(server).listen(0, '127.0.0.1'), handled);
  }
  const readAll = async (req: http.IncomingMessage) => {
    let n = 0;
    for await (const chunk of req) n += (chunk as Buffer).length;
    return n;
  };

  it('headers completed after their 408 never reach a handler (the rest is read and dropped, not parsed)', async () => {
    running = await nodeServer((req, res, handled) => {
      void readAll(req)
        .then((n) => (handled.push(`${req.url} ${n}`), res.end('stored')))
        .catch(() => undefined);
    });
    const { port } = running;
    const [o] = await clients([
      {
        port,
        send: `POST /upload HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 5\r\nX-Slow: `,
        trickle: { byte: 'a', everyMs: 200, untilMs: 8_000 },
        afterAnswer: '\r\n\r\nhello',
        halfOpen: true,
      },
    ]);
    expect(o!.statuses, JSON.stringify(o)).toEqual([408]);
    await new Promise((r) => setTimeout(r, 300));
    expect(running.handled).toEqual([]);
  }, 20_000);

  it('a pipelined request whose body is too slow gets its 408 after the earlier answer, in order', async () => {
    running = await nodeServer((req, res, handled) => {
      void readAll(req)
        .then(async (n) => {
          if (req.url === '/slow') await new Promise((r) => setTimeout(r, REQUEST_MS + 800));
          handled.push(`${req.url} ${n}`);
          res.end('stored');
        })
        .catch(() => undefined);
    });
    const { port } = running;
    const [o] = await clients([
      {
        port,
        send: `POST /slow HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 2\r\n\r\nokPOST /upload HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 1000\r\n\r\na`,
        trickle: { byte: 'a', everyMs: 100, untilMs: 8_000 },
        waitMs: 9_000,
      },
    ]);
    expect(o!.statuses, JSON.stringify(o)).toEqual([200, 408]);
    expect(o!.received).toMatch(/stored[^]*request_timeout/);
    expect(running.handled).toEqual(['/slow 2']);
  }, 20_000);
});
