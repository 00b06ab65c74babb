// Webhooks (Actions) receivers attacked from outside over real HTTP on every set-up: core's node
// listener, core's fetch handler (on @hono/node-server), Express, the Fastify plugin, Fastify's
// webhookRoute, Hono on @hono/node-server. What a prober sends that Segment's code never would.
import type http from 'node:http';
import { createHmac } from 'node:crypto';
import { createAdaptorServer } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { createReceiver, toNodeListener, type ReceiverOptions } from '@hookgate/core';
import { type AnyReceiverOptions } from '@hookgate/core/internal';
import { hookgate as expressHookgate } from '@hookgate/express';
import {
  hookgate as fastifyHookgate,
  hookgateRawBody,
  webhookRoute,
  type HookgatePluginOptions,
} from '@hookgate/fastify';
import { hookgate as honoHookgate } from '@hookgate/hono';
import { listenOnLoopback, startHttpServer, type RunningServer } from '../helpers/servers.js';

const SECRET = 'whsec_actions_adapter_attack_4d0e';
const hmac = (text: string) => createHmac('sha1', SECRET).update(text).digest('hex');

interface SetUp {
  name: string;
  /** false: a pass-through route answers (no handlers in the receiver). */
  handlers: boolean;
  start(options: AnyReceiverOptions): Promise<RunningServer>;
}

const passThroughOptions = (options: AnyReceiverOptions) => {
  const {
    on: _on,
    onMessage: _onMessage,
    onPayload: _onPayload,
    schema: _schema,
    insecureAcceptBatches: _b,
    ...rest
  } = options as Record<string, unknown>;
  return rest as unknown as AnyReceiverOptions;
};

const SETUPS: SetUp[] = [
  {
    name: "core's node listener",
    handlers: true,
    start: (o) => startHttpServer(toNodeListener(createReceiver(o as ReceiverOptions))),
  },
  {
    name: "core's fetch handler",
    handlers: true,
    start: (o) => {
      const receiver = createReceiver(o as ReceiverOptions);
      return listenOnLoopback(createAdaptorServer({ fetch: (request) => receiver.fetch(request) }) as http.Server);
    },
  },
  {
    name: 'Express',
    handlers: true,
    start: (o) => {
      const app = express();
      app.all('/hook', expressHookgate(o));
      return startHttpServer(app);
    },
  },
  {
    name: 'Fastify plugin',
    handlers: true,
    start: async (o) => {
      const app = Fastify();
      await app.register(fastifyHookgate, { path: '/hook', ...o } as unknown as HookgatePluginOptions);
      await app.ready();
      return listenOnLoopback(app.server);
    },
  },
  {
    name: 'Fastify webhookRoute (pass-through)',
    handlers: false,
    start: async (o) => {
      const app = Fastify();
      await app.register(async (scope) => {
        await scope.register(hookgateRawBody);
        scope.all('/hook', webhookRoute(passThroughOptions(o)), async () => ({ ok: true, route: true }));
      });
      await app.ready();
      return listenOnLoopback(app.server);
    },
  },
  {
    name: 'Hono',
    handlers: true,
    start: (o) => {
      const app = new Hono();
      app.all('/hook', honoHookgate(o));
      return listenOnLoopback(createAdaptorServer({ fetch: app.fetch }) as http.Server);
    },
  },
];

const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function start(setUp: SetUp, options: AnyReceiverOptions): Promise<string> {
  const server = await setUp.start(setUp.handlers ? options : passThroughOptions(options));
  servers.push(server);
  return `${server.url}/hook`;
}

async function send(
  url: string,
  body: string | undefined,
  {
    method = 'PUT',
    signature,
    headers = {},
  }: { method?: string; signature?: string | null; headers?: Record<string, string> } = {},
) {
  const sig = signature === undefined ? (body === undefined ? null : hmac(body)) : signature;
  const r = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...(sig === null ? {} : { 'x-signature': sig }), ...headers },
    body,
  });
  const text = await r.text();
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return { status: r.status, allow: r.headers.get('allow'), text, json };
}

describe.each(SETUPS)('$name', (setUp) => {
  it('DELETE, HEAD and GET are 405 naming POST, PUT, PATCH; the classic receiver refuses PUT and PATCH', async () => {
    const ran: unknown[] = [];
    const url = await start(setUp, { destination: 'actions', secret: SECRET, onPayload: (p) => void ran.push(p) });
    for (const method of ['DELETE', 'GET', 'HEAD']) {
      const r = await send(url, undefined, { method });
      expect([method, r.status, r.allow]).toEqual([method, 405, 'POST, PUT, PATCH']);
    }
    const del = await send(url, '{"orderId":"o-1"}', { method: 'DELETE' });
    expect([del.status, del.json?.code]).toEqual([405, 'method_not_allowed']);
    expect(ran).toEqual([]);

    const classic = await start(setUp, { secret: SECRET, onMessage: () => {} });
    for (const method of ['PUT', 'PATCH']) {
      const r = await send(classic, '{"type":"track"}', { method });
      expect([method, r.status, r.allow]).toEqual([method, 405, 'POST']);
    }
  });

  it('a body that is a JSON string, number or null is 400 naming what came; an array of them is a refused batch', async () => {
    const url = await start(setUp, { destination: 'actions', secret: SECRET, onPayload: () => {} });
    for (const [body, got] of [
      ['"text"', 'string'],
      ['7', 'number'],
      ['null', 'null'],
    ] as const) {
      const r = await send(url, body);
      expect([body, r.status, r.json?.code]).toEqual([body, 400, 'invalid_payload']);
      expect(r.json?.message).toContain(`got ${got}`);
    }
    const batch = await send(url, '[null,[1]]', { signature: hmac('null') });
    expect([batch.status, batch.json?.code]).toEqual([422, 'batch_refused']);
  });

  it('re-encoded bytes (the parsed value unchanged) are 401; a signature uppercased, padded or repeated is judged as the docs say', async () => {
    const url = await start(setUp, { destination: 'actions', secret: SECRET, onPayload: () => {} });
    const signedText = '{"orderId":"o-1","total":1}';
    const sig = hmac(signedText);
    expect((await send(url, '{"orderId":"o-1","total":1.0}', { signature: sig })).status).toBe(401);
    expect(
      (
        await send(url, '{"orderId":"o-1","total":1,"x":"\\u00e9"}', {
          signature: hmac('{"orderId":"o-1","total":1,"x":"é"}'),
        })
      ).status,
    ).toBe(401);
    // Leading and trailing blanks are not part of a header's value (RFC 9110); uppercase hex: see the receiver docs.
    expect((await send(url, signedText, { signature: ` ${sig} ` })).status).toBe(200);
    const upper = '{"orderId":"o-3","total":1}';
    expect((await send(url, upper, { signature: hmac(upper).toUpperCase() })).status).toBe(200);
    expect(
      (
        await send(`${url}?a=2`, '{"orderId":"o-2","total":1}', {
          signature: `${hmac('{"orderId":"o-2","total":1}')}, ${hmac('{"orderId":"o-2","total":1}')}`,
        })
      ).status,
    ).toBe(401);
  });

  it.runIf(setUp.handlers)(
    'an element repeated inside one accepted batch runs once, and its retry runs nothing',
    async () => {
      const ran: unknown[] = [];
      const url = await start(setUp, {
        destination: 'actions',
        secret: SECRET,
        insecureAcceptBatches: true,
        onPayload: (p) => void ran.push(p),
      });
      const batch = [{ orderId: 'o-1', messageId: 'm-1' }, { orderId: 'o-1', messageId: 'm-1' }, { orderId: 'o-2' }];
      const body = JSON.stringify(batch);
      const r = await send(url, body, { signature: hmac(JSON.stringify(batch[0])) });
      expect([r.status, r.json?.code]).toEqual([200, 'ok']);
      const again = await send(url, body, { signature: hmac(JSON.stringify(batch[0])) });
      expect([again.status, again.json?.code]).toEqual([200, 'duplicate']);
      expect(ran).toEqual([batch[0], batch[2]]);
    },
  );

  it.runIf(setUp.handlers)(
    'a forged element behind a captured signature cannot make the real signed event a duplicate',
    async () => {
      const ran: unknown[] = [];
      const url = await start(setUp, {
        destination: 'actions',
        secret: SECRET,
        insecureAcceptBatches: true,
        onPayload: (p) => void ran.push(p),
      });
      const captured = { orderId: 'o-1', messageId: 'm-1' };
      const forged = [captured, { orderId: 'forged', messageId: 'm-next' }];
      expect((await send(url, JSON.stringify(forged), { signature: hmac(JSON.stringify(captured)) })).status).toBe(200);
      const real = await send(url, JSON.stringify({ orderId: 'o-2', messageId: 'm-next' }));
      expect([real.status, real.json?.code]).toEqual([200, 'ok']);
      expect(ran).toEqual([captured, forged[1], { orderId: 'o-2', messageId: 'm-next' }]);
    },
  );

  it.runIf(setUp.handlers)('an element nested too deeply to serialize is 400, not a 500 retried forever', async () => {
    const url = await start(setUp, {
      destination: 'actions',
      secret: SECRET,
      insecureAcceptBatches: 'including-unsigned',
      onPayload: () => {},
    });
    const r = await send(url, `[{"a":1},{"x":${'['.repeat(5_000)}${']'.repeat(5_000)}}]`, { signature: null });
    expect([r.status, r.json?.code]).toEqual([400, 'invalid_payload']);
  });

  it.runIf(setUp.handlers)(
    'a schema that throws: the same JSON 500 on every set-up (the sender retries), reported to onError',
    async () => {
      const errors: unknown[] = [];
      const url = await start(setUp, {
        destination: 'actions',
        secret: SECRET,
        onError: (e) => void errors.push(e),
        schema: {
          '~standard': { version: 1, vendor: 'attack', validate: () => Promise.reject(new Error('schema exploded')) },
        },
        onPayload: () => {},
      });
      const r = await send(url, '{"a":1}');
      expect([r.status, r.json?.code]).toEqual([500, 'handler_error']);
      expect(errors.map((e) => (e as Error).message)).toEqual(['schema exploded']);
    },
  );
});

it('a slow onPayload is answered 503 at about 4 s on every set-up with handlers, and its signal fires', async () => {
  const results = await Promise.all(
    SETUPS.filter((s) => s.handlers).map(async (setUp) => {
      let aborted: unknown;
      const url = await start(setUp, {
        destination: 'actions',
        secret: SECRET,
        onPayload: (_p, ctx) =>
          new Promise<void>((resolve) => {
            ctx.signal.addEventListener('abort', () => {
              aborted = ctx.signal.reason;
              resolve();
            });
          }),
      });
      const t0 = Date.now();
      const r = await send(url, '{"orderId":"slow"}');
      return {
        name: setUp.name,
        status: r.status,
        code: r.json?.code,
        ms: Date.now() - t0,
        aborted: (aborted as Error | undefined)?.name,
      };
    }),
  );
  for (const r of results) {
    expect(r).toMatchObject({ status: 503, code: 'deadline_exceeded', aborted: 'DeadlineExceededError' });
    expect(r.ms).toBeGreaterThanOrEqual(3_900);
    expect(r.ms).toBeLessThan(4_900);
  }
}, 20_000);

it('acknowledge mode answers 200 before a slow onPayload finishes on every set-up with handlers', async () => {
  for (const setUp of SETUPS.filter((s) => s.handlers)) {
    let finished = false;
    const url = await start(setUp, {
      destination: 'actions',
      secret: SECRET,
      mode: 'acknowledge',
      onPayload: () => new Promise<void>((resolve) => setTimeout(() => ((finished = true), resolve()), 300)),
    });
    const r = await send(url, '{"orderId":"ack"}');
    expect([setUp.name, r.status, r.json?.code, finished]).toEqual([setUp.name, 200, 'ok', false]);
  }
});
