// The one guard of hookgate's own servers, over real HTTP: every /_hookgate/* route and the inspector
// page of `serve`'s intake and of `listen` refuse a DNS-rebinding Host, a request off loopback
// without the token, and no view, event stream, page or log line carries the source's write key.
import { sign } from '@hookgate/core';
import { afterEach, describe, expect, it } from 'vitest';
import { readAll, startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';
import { createEmulator, listenIntake, startListener, type Emulator } from '../../src/index.js';
import { externalIPv4, rawRequest, startCliFromSources } from '../helpers/local-http.js';

const WRITE_KEY = 'wk_live_H1guard0123456789abcdef';
const TOKEN = 'ui-token-0123456789abcdef';
const SECRET = 'guard-s3cret';
const basic = `Basic ${Buffer.from(`${WRITE_KEY}:`).toString('base64')}`;

const open: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function receiver(): Promise<{ server: RunningServer; bodies: string[] }> {
  const bodies: string[] = [];
  const server = await startHttpServer(async (req, res) => {
    bodies.push((await readAll(req)).toString('utf8'));
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  open.push(server);
  return { server, bodies };
}

async function emulatorTo(url: string): Promise<Emulator> {
  const emulator = createEmulator({
    sources: [{ writeKey: WRITE_KEY, webhooks: { enabled: true, endpoints: [{ url }], sharedSecret: SECRET } }],
  });
  open.push({ close: () => emulator.close() });
  return emulator;
}

/** Every route of the intake's server under /_hookgate/ and the page, with the method each takes. */
const INTAKE_ROUTES: Array<[string, string]> = [
  ['GET', '/'],
  ['GET', '/_hookgate/deliveries'],
  ['GET', '/_hookgate/health'],
  ['GET', '/_hookgate/ui/api/meta'],
  ['GET', '/_hookgate/ui/api/deliveries'],
  ['GET', '/_hookgate/ui/api/deliveries/dlv_1'],
  ['GET', '/_hookgate/ui/app.js'],
  ['GET', '/_hookgate/events'],
  ['POST', '/_hookgate/send-test'],
  ['POST', '/_hookgate/deliveries/dlv_1/replay'],
  ['POST', '/_hookgate/deliveries/dlv_1/retry'],
  ['GET', '/_hookgate/no-such-view'],
];

const LISTEN_ROUTES: Array<[string, string]> = [
  ['GET', '/'],
  ['GET', '/_hookgate/inbound'],
  ['GET', '/_hookgate/inbound/in_1'],
  ['GET', '/_hookgate/inbound/events'],
  ['GET', '/_hookgate/health'],
  ['GET', '/_hookgate/ui/api/meta'],
  ['GET', '/_hookgate/ui/api/inbound'],
  ['GET', '/_hookgate/events'],
  ['GET', '/_hookgate/no-such-view'],
];

const ACTION_HEADERS = { 'x-hookgate-inspector': '1', 'content-type': 'application/json' };

describe("serve's intake: one guard on every /_hookgate/* route and the page", () => {
  it('refuses a DNS-rebinding Host on every route (403), answers a loopback Host', async () => {
    const rx = await receiver();
    const emulator = await emulatorTo(`${rx.server.url}/hook`);
    const intake = await listenIntake(emulator);
    open.push(intake);
    emulator.ingest({ type: 'track', userId: 'u1', event: 'Signed Up' }, { writeKey: WRITE_KEY });
    await emulator.drain();
    for (const [method, path] of INTAKE_ROUTES) {
      const headers = { host: `rebind.attacker.example:${intake.port}`, ...(method === 'POST' ? ACTION_HEADERS : {}) };
      const refused = await rawRequest(`${intake.url}${path}`, {
        method,
        headers,
        body: method === 'POST' ? '{}' : undefined,
      });
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.text, `${method} ${path}`).toMatch(/DNS rebinding/);
      expect(refused.text).not.toContain(WRITE_KEY);
    }
    for (const [method, path] of INTAKE_ROUTES.filter(([m, p]) => m === 'GET' && !p.includes('no-such'))) {
      const ok = await rawRequest(`${intake.url}${path}`, { method, headers: { host: `localhost:${intake.port}` } });
      expect(ok.status, `${method} ${path}`).toBe(200);
    }
    // Nothing was replayed or sent by the refused actions.
    expect(emulator.deliveries.length).toBe(1);
  });

  const ip = externalIPv4();
  it.skipIf(ip === undefined)(
    'bound to 0.0.0.0 with a token: every route needs it from the network, even /_hookgate/deliveries',
    async () => {
      const rx = await receiver();
      const emulator = await emulatorTo(`${rx.server.url}/hook`);
      const intake = await listenIntake(emulator, { host: '0.0.0.0', inspector: { token: TOKEN } });
      open.push(intake);
      emulator.ingest({ type: 'track', userId: 'u1', event: 'Signed Up' }, { writeKey: WRITE_KEY });
      await emulator.drain();
      const base = `http://${ip}:${intake.port}`;
      for (const [method, path] of INTAKE_ROUTES) {
        const body = method === 'POST' ? '{}' : undefined;
        const extra = method === 'POST' ? ACTION_HEADERS : {};
        const none = await rawRequest(`${base}${path}`, { method, headers: extra, body });
        expect(none.status, `${method} ${path} without token`).toBe(401);
        const wrong = await rawRequest(`${base}${path}`, {
          method,
          headers: { ...extra, authorization: `Bearer ${TOKEN.slice(0, -1)}X` },
          body,
        });
        expect(wrong.status, `${method} ${path} wrong token`).toBe(401);
        // The token does not make a rebinding name acceptable.
        const rebound = await rawRequest(`${base}${path}`, {
          method,
          headers: { ...extra, host: 'rebind.attacker.example', authorization: `Bearer ${TOKEN}` },
          body,
        });
        expect(rebound.status, `${method} ${path} rebound`).toBe(403);
      }
      for (const [method, path] of INTAKE_ROUTES.filter(([m, p]) => m === 'GET' && !p.includes('no-such'))) {
        const ok = await rawRequest(`${base}${path}`, { method, headers: { authorization: `Bearer ${TOKEN}` } });
        expect(ok.status, `${method} ${path} with token`).toBe(200);
        const header = await rawRequest(`${base}${path}`, { method, headers: { 'x-hookgate-token': TOKEN } });
        expect(header.status, `${method} ${path} with X-Hookgate-Token`).toBe(200);
      }
      // The tracking API keeps its own rule (the write key), not the views' token.
      const tracked = await rawRequest(`${base}/v1/track`, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/json' },
        body: '{"userId":"u2","event":"E"}',
      });
      expect(tracked.status).toBe(200);
    },
  );

  it.skipIf(ip === undefined)(
    'bound to 0.0.0.0 with the inspector off and no token: the JSON views answer loopback sockets only',
    async () => {
      const rx = await receiver();
      const emulator = await emulatorTo(`${rx.server.url}/hook`);
      const intake = await listenIntake(emulator, { host: '0.0.0.0', inspector: false });
      open.push(intake);
      const off = await rawRequest(`http://${ip}:${intake.port}/_hookgate/deliveries`);
      expect(off.status).toBe(403);
      expect(off.text).toMatch(/loopback interface unless a token is set/);
      const local = await rawRequest(`http://127.0.0.1:${intake.port}/_hookgate/deliveries`);
      expect(local.status).toBe(200);
    },
  );

  it('no JSON view, event stream, page or detail carries the write key', async () => {
    const rx = await receiver();
    const emulator = await emulatorTo(`${rx.server.url}/hook`);
    const intake = await listenIntake(emulator);
    open.push(intake);
    const stream = rawRequest(`${intake.url}/_hookgate/events`, { streamMs: 1500 });
    await new Promise((r) => setTimeout(r, 200));
    // Write key by Basic auth, in a text/plain body (as analytics.js sends it), a batch with a refused
    // call and an anonymous call (filtered), so every kind of record is in the log.
    const answers = await Promise.all([
      rawRequest(`${intake.url}/v1/track`, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/json' },
        body: '{"userId":"u1","event":"Basic"}',
      }),
      rawRequest(`${intake.url}/v1/track`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ writeKey: WRITE_KEY, userId: 'u2', event: 'In body' }),
      }),
      rawRequest(`${intake.url}/v1/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          writeKey: WRITE_KEY,
          batch: [
            { type: 'track', userId: 'u3', event: 'B' },
            { type: 'track', userId: 'u4' },
            { type: 'identify', anonymousId: 'a1' },
          ],
        }),
      }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    await emulator.drain();
    const seen = await stream;
    expect(emulator.deliveries.length).toBeGreaterThanOrEqual(5);
    expect(rx.bodies.length).toBe(3);
    const views = [
      seen.text,
      (await rawRequest(`${intake.url}/_hookgate/deliveries`)).text,
      (await rawRequest(`${intake.url}/_hookgate/deliveries?state=filtered`)).text,
      (await rawRequest(`${intake.url}/_hookgate/health`)).text,
      (await rawRequest(`${intake.url}/`)).text,
      (await rawRequest(`${intake.url}/_hookgate/ui/api/meta`)).text,
      (await rawRequest(`${intake.url}/_hookgate/ui/api/deliveries`)).text,
      ...(await Promise.all(
        emulator.deliveries.map(
          async (r) => (await rawRequest(`${intake.url}/_hookgate/ui/api/deliveries/${r.id}`)).text,
        ),
      )),
      ...(await Promise.all(
        emulator.deliveries.map(
          async (r) =>
            (
              await rawRequest(`${intake.url}/_hookgate/deliveries/${r.id}/replay`, {
                method: 'POST',
                headers: ACTION_HEADERS,
                body: '{}',
              })
            ).text,
        ),
      )),
    ];
    expect(seen.text).toMatch(/event: deliveries/);
    expect(views[1]).toContain('"writeKey"');
    for (const view of views) expect(view).not.toContain(WRITE_KEY);
    // Not even a long piece of it.
    for (const view of views) expect(view).not.toContain(WRITE_KEY.slice(0, 10));
  });
});

describe('listen: the same guard on its views and page', () => {
  it('refuses a DNS-rebinding Host on every route (403), answers a loopback Host', async () => {
    const listener = await startListener({ secret: SECRET });
    open.push(listener);
    const body = '{"type":"track","userId":"u1","event":"E","timestamp":"2026-01-01T00:00:00.000Z","version":1}';
    expect(
      (
        await rawRequest(`${listener.url}/hook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-signature': sign(body, SECRET) },
          body,
        })
      ).status,
    ).toBe(200);
    for (const [method, path] of LISTEN_ROUTES) {
      const refused = await rawRequest(`${listener.url}${path}`, {
        method,
        headers: { host: `rebind.attacker.example:${listener.port}` },
      });
      expect(refused.status, `${method} ${path}`).toBe(403);
    }
    for (const [method, path] of LISTEN_ROUTES.filter(([, p]) => !p.includes('no-such'))) {
      const ok = await rawRequest(`${listener.url}${path}`, {
        method,
        headers: { host: `127.0.0.1:${listener.port}` },
      });
      expect(ok.status, `${method} ${path}`).toBe(200);
    }
  });

  const ip = externalIPv4();
  it.skipIf(ip === undefined)('bound to 0.0.0.0 with a token: every view and the page need it', async () => {
    const listener = await startListener({ secret: SECRET, host: '0.0.0.0', uiToken: TOKEN });
    open.push(listener);
    const base = `http://${ip}:${listener.port}`;
    const body = '{"type":"track","userId":"u1","event":"E","timestamp":"2026-01-01T00:00:00.000Z","version":1}';
    // Webhooks themselves are not views: a sender needs no token.
    expect(
      (
        await rawRequest(`${base}/hook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-signature': sign(body, SECRET) },
          body,
        })
      ).status,
    ).toBe(200);
    for (const [method, path] of LISTEN_ROUTES) {
      expect((await rawRequest(`${base}${path}`, { method })).status, `${method} ${path} without token`).toBe(401);
      expect(
        (
          await rawRequest(`${base}${path}`, {
            method,
            headers: { host: 'rebind.attacker.example', authorization: `Bearer ${TOKEN}` },
          })
        ).status,
        `${method} ${path} rebound`,
      ).toBe(403);
    }
    for (const [method, path] of LISTEN_ROUTES.filter(([, p]) => !p.includes('no-such'))) {
      expect(
        (await rawRequest(`${base}${path}`, { method, headers: { authorization: `Bearer ${TOKEN}` } })).status,
        `${method} ${path} with token`,
      ).toBe(200);
    }
  });
});

describe('hookgate serve (spawned): the write key is in the banner once, never in a log line', () => {
  it('text log and DEBUG lines carry no write key after the banner', async () => {
    const rx = await receiver();
    const serve = startCliFromSources(
      ['serve', '--port', '0', '--endpoint', `${rx.server.url}/hook`, '--write-key', WRITE_KEY, '--secret', SECRET],
      { DEBUG: 'hookgate' },
    );
    open.push({ close: async () => void (serve.child.exitCode === null && serve.child.kill('SIGKILL')) });
    const url = (await serve.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/))[1] as string;
    await serve.waitFor(/Press Ctrl-C/);
    const banner = serve.out();
    expect(banner.split(WRITE_KEY).length - 1).toBe(1);
    const posts = await Promise.all([
      rawRequest(`${url}/v1/track`, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/json' },
        body: '{"userId":"u1","event":"Basic"}',
      }),
      rawRequest(`${url}/v1/track`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', origin: 'http://localhost:3000' },
        body: JSON.stringify({ writeKey: WRITE_KEY, userId: 'u2', event: 'Page' }),
      }),
      rawRequest(`${url}/v1/identify`, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/json' },
        body: '{"anonymousId":"a1"}',
      }),
      rawRequest(`${url}/v1/track`, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/json' },
        body: '{"userId":"u3"}',
      }),
    ]);
    expect(posts.map((p) => p.status)).toEqual([200, 200, 200, 400]);
    await serve.waitFor(/filtered/);
    while (rx.bodies.length < 2) await new Promise((r) => setTimeout(r, 25));
    await new Promise((r) => setTimeout(r, 300));
    serve.child.kill('SIGINT');
    expect(await serve.exited).toBe(0);
    const after = serve.out().slice(banner.length) + serve.err();
    expect(after).toMatch(/200/);
    expect(after).not.toContain(WRITE_KEY);
    expect(after).not.toContain(SECRET);
  }, 60_000);
});
