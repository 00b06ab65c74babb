// The time limits the READMEs tell users to set on their own server, set exactly as written there
// (core's node:http, Express, Fastify, @hono/node-server): headers trickled one byte every 250 ms get
// 408 after about 10 s, not Node's 60 s checked every 30 s; a prompt request is answered as usual.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { createReceiver, handleClientErrors, toNodeListener } from '@hookgate/core';
import { hookgate as expressHookgate } from '@hookgate/express';
import { answerClientError, hookgate as fastifyHookgate } from '@hookgate/fastify';
import { hookgate as honoHookgate } from '@hookgate/hono';
import { reportingRejections } from '../helpers/servers.js';

const SECRET = 'whsec_time_limits';
const onMessage = () => {};

// As in core's and the Express and Hono READMEs.
const limits: http.ServerOptions = {
  headersTimeout: 10_000,
  requestTimeout: 10_000,
  connectionsCheckingInterval: 1_000,
  keepAliveTimeout: 5_000,
};

type Started = { port: number; close(): Promise<void> };

function listening(server: http.Server): Promise<Started> {
  return new Promise((resolve) => {
    const ready = () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        port,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    };
    if (server.listening) ready();
    else server.once('listening', ready);
  });
}

const SERVERS: Array<{ name: string; start(): Promise<Started> }> = [
  {
    name: "core's node:http listener",
    start: () =>
      listening(
        handleClientErrors(
          http.createServer(limits, reportingRejections(toNodeListener(createReceiver({ secret: SECRET, onMessage })))),
        ).listen(0, '127.0.0.1'),
      ),
  },
  {
    name: 'Express on http.createServer(limits, app)',
    start() {
      const app = express();
      app.all('/webhooks', expressHookgate({ secret: SECRET, onMessage }));
      return listening(handleClientErrors(http.createServer(limits, app)).listen(0, '127.0.0.1'));
    },
  },
  {
    name: "Fastify with the README's options",
    async start() {
      const app = Fastify({
        http: { headersTimeout: 10_000, connectionsCheckingInterval: 1_000 },
        requestTimeout: 10_000,
        connectionTimeout: 10_000,
        keepAliveTimeout: 5_000,
        bodyLimit: 1_048_576,
        clientErrorHandler: answerClientError,
      });
      await app.register(fastifyHookgate, { secret: SECRET, onMessage });
      await app.listen({ host: '127.0.0.1', port: 0 });
      return {
        port: (app.server.address() as AddressInfo).port,
        close: async () => void (app.server.closeAllConnections(), await app.close()),
      };
    },
  },
  {
    name: '@hono/node-server with serverOptions',
    start() {
      const app = new Hono();
      app.all('/webhooks', honoHookgate({ secret: SECRET, onMessage }));
      const server = serve({
        fetch: app.fetch,
        hostname: '127.0.0.1',
        port: 0,
        serverOptions: {
          headersTimeout: 10_000,
          requestTimeout: 10_000,
          connectionsCheckingInterval: 1_000,
          keepAliveTimeout: 5_000,
        },
      }) as http.Server;
      return listening(handleClientErrors(server));
    },
  },
];

/** Sends a request's headers one byte every 250 ms; the status first answered and when, in ms. */
function trickleHeaders(port: number): Promise<{ status: number; ms: number }> {
  const head = `POST /webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Padding: ${'a'.repeat(200)}\r\n\r\n`;
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let sent = 0;
    let got = '';
    const timer = setInterval(() => {
      if (sent < head.length) socket.write(head[sent++]!);
    }, 250);
    const done = (status: number) => {
      clearInterval(timer);
      socket.destroy();
      resolve({ status, ms: Date.now() - started });
    };
    socket.on('data', (chunk: Buffer) => {
      got += chunk.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(got)?.[1];
      if (status !== undefined) done(Number(status));
    });
    socket.on('close', () => done(0));
    socket.on('error', () => {});
  });
}

const running: Started[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.close()));
});

describe.concurrent('time limits set as the READMEs say', () => {
  for (const setup of SERVERS) {
    it(`${setup.name}: trickled headers get 408 after about 10 s; a prompt request is answered`, async () => {
      const server = await setup.start();
      running.push(server);
      const prompt = await fetch(`http://127.0.0.1:${server.port}/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(prompt.status).toBe(401); // unsigned: the receiver runs under these options
      const { status, ms } = await trickleHeaders(server.port);
      expect(status).toBe(408);
      expect(ms).toBeGreaterThanOrEqual(9_500);
      expect(ms).toBeLessThan(13_000); // 10 s, plus at most one 1 s check, plus load
    }, 30_000);
  }
});
