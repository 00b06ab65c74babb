// A 413 reaches a sender that writes its whole oversize body before it reads: three such senders at
// once, each writing 5 MB over about 1.2 s from ANOTHER PROCESS (late-reader-client.ts), on every
// set-up whose server answers for itself. A server that closes its side while the body still arrives
// resets the connection, and the reset throws the unread answer away: the client sees an error.
// (In one process the client's reads and the server's close share an event loop and the bug hides.)
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createAdaptorServer } from '@hono/node-server';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createReceiver } from '@hookgate/core';
import { webhookRoute } from '@hookgate/fastify';
import { SETUPS, type RunningSetup, type Setup } from './attack-setups.js';
import type { LateReaderOutcome } from './late-reader-client.js';
import { listenOnLoopback } from '../helpers/servers.js';
import { runOutcomesProcess } from '../helpers/outcomes-process.js';

const SECRET = 'whsec_process_oversize';
const FIVE_MB = 5 * 1024 * 1024;
const WRITE_MS = 1200;
const CLIENTS = 3;
const CLIENT = fileURLToPath(new URL('./late-reader-client.ts', import.meta.url));

/** webhookRoute() on a scope that keeps Fastify's own JSON parser (no hookgateRawBody): Fastify answers the 413. */
const fastifyOwnParser: Setup = {
  name: "fastify webhookRoute (Fastify's own JSON parser)",
  raw: false,
  frameworkReadsBody: true,
  async start(options) {
    const runs: RunningSetup['runs'] = [];
    const app = Fastify();
    app.all('/webhooks', webhookRoute(options), async (request) => {
      runs.push({ message: request.webhook! });
      return { ok: true };
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}/webhooks`,
      runs,
      close: async () => {
        app.server.closeAllConnections();
        await app.close();
      },
    };
  },
};

/**
 * Core's fetch handler on @hono/node-server, configured as its README says: that server's own
 * clean-up of unread bodies (`autoCleanupIncoming`) closes 0.5 s after the answer; off, Node's server
 * reads the rest instead.
 */
const coreFetchOnHonoNode: Setup = {
  name: "core's fetch handler on @hono/node-server (autoCleanupIncoming: false)",
  raw: true,
  frameworkReadsBody: false,
  async start(options) {
    const runs: RunningSetup['runs'] = [];
    const receiver = createReceiver({ ...options, onMessage: (message) => void runs.push({ message }) });
    const server = createAdaptorServer({
      fetch: receiver.fetch,
      hostname: '127.0.0.1',
      autoCleanupIncoming: false,
    }) as Server;
    const s = await listenOnLoopback(server);
    return { url: `${s.url}/webhooks`, runs, close: s.close };
  },
};

const NAMES = [
  "core's node listener",
  'express',
  'fastify plugin',
  'fastify webhookRoute (hookgateRawBody scope)',
  'hono on node',
  'hono on node, pass-through (the route reads c.req.text())',
];
const SETUPS_UNDER_TEST: readonly Setup[] = [
  ...NAMES.map((name) => SETUPS.find((s) => s.name === name)!),
  fastifyOwnParser,
  coreFetchOnHonoNode,
];

/** Runs the clients in a child process and returns what each saw. */
function lateReaders(url: string, chunked: boolean): Promise<LateReaderOutcome[]> {
  const plan = { url, clients: CLIENTS, totalBytes: FIVE_MB, writeMs: WRITE_MS, chunked };
  return runOutcomesProcess<LateReaderOutcome[]>(CLIENT, plan);
}

let running: RunningSetup | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

for (const setup of SETUPS_UNDER_TEST) {
  describe(setup.name, () => {
    for (const chunked of [false, true]) {
      it(`three senders writing 5 MB over ${WRITE_MS} ms (${chunked ? 'chunked' : 'Content-Length'}), reading only after, each read the 413`, async () => {
        running = await setup.start({ secret: SECRET });
        const outcomes = await lateReaders(running.url, chunked);
        // Each client really wrote for about 1.2 s before it read (the scenario, not a fast upload).
        for (const o of outcomes) if (o.wroteMs !== undefined) expect(o.wroteMs).toBeGreaterThanOrEqual(WRITE_MS * 0.9);
        expect(outcomes.map((o) => ({ status: o.status, error: o.error }))).toEqual(
          outcomes.map(() => ({ status: 413, error: undefined })),
        );
        for (const o of outcomes)
          expect(JSON.parse(o.body!)).toMatchObject({
            code: 'payload_too_large',
            message: expect.stringMatching(/limit of 1048576 bytes|too large/),
          });
        expect(running.runs).toEqual([]);
      }, 30_000);
    }
  });
}
