// The tracking API and web origins, over real HTTP: a page on another origin cannot make the intake
// sign and deliver an event (403, nothing recorded), a page on a loopback origin (a real browser,
// analytics.js's text/plain) and server-side clients keep working, CORS answers are exact, and
// `--allow-origin` allows exactly the origin it names.
import { existsSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readAll, startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';
import {
  createEmulator,
  createIntakeListener,
  listenIntake,
  type Emulator,
  type IntakeServer,
} from '../../src/index.js';
import { CHROMIUM_PATH, launchChromium, type RunningBrowser } from '../inspector/chromium.js';
import { rawRequest, startCliFromSources } from '../helpers/local-http.js';

const WRITE_KEY = 'wk_origin_0123456789abcdef';
const open: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function setup(allowOrigins?: string[]): Promise<{ emulator: Emulator; intake: IntakeServer; bodies: string[] }> {
  const bodies: string[] = [];
  const rx = await startHttpServer(async (req, res) => {
    bodies.push((await readAll(req)).toString('utf8'));
    res.writeHead(200).end('{}');
  });
  open.push(rx);
  const emulator = createEmulator({
    sources: [
      {
        writeKey: WRITE_KEY,
        webhooks: { enabled: true, endpoints: [{ url: `${rx.url}/hook` }], sharedSecret: 's3cret' },
      },
    ],
  });
  open.push({ close: () => emulator.close() });
  const intake = await listenIntake(emulator, allowOrigins ? { allowOrigins } : {});
  open.push(intake);
  return { emulator, intake, bodies };
}

/** A call as analytics.js sends it from a page: text/plain (no preflight), the write key in the body. */
const pageCall = (event: string) =>
  JSON.stringify({ writeKey: WRITE_KEY, type: 'track', userId: 'u1', event, messageId: `m-${event}` });

describe('the tracking API refuses other web origins', () => {
  it('a cross-origin text/plain POST with the write key in the body is refused 403 and never recorded or delivered', async () => {
    const { emulator, intake, bodies } = await setup();
    const answer = await rawRequest(`${intake.url}/v1/track`, {
      method: 'POST',
      headers: {
        'content-type': 'text/plain;charset=UTF-8',
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
        'sec-fetch-mode': 'no-cors',
      },
      body: pageCall('Forged'),
    });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.text)).toMatchObject({ success: false, code: 'forbidden_origin' });
    expect(answer.text).toContain('https://evil.example');
    expect(answer.text).toContain('--allow-origin');
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    // The same through the batch and import routes, by Basic auth, and from a DNS-rebinding page (same-origin for the browser).
    const basic = `Basic ${Buffer.from(`${WRITE_KEY}:`).toString('base64')}`;
    for (const [path, headers] of [
      ['/v1/batch', { origin: 'http://evil.example', 'content-type': 'text/plain' }],
      ['/v1/import', { origin: 'http://evil.example', 'content-type': 'application/json', authorization: basic }],
      [
        '/v1/track',
        {
          origin: `http://rebind.attacker.example:${intake.port}`,
          'sec-fetch-site': 'same-origin',
          'content-type': 'text/plain',
        },
      ],
      ['/v1/track', { origin: 'null', 'content-type': 'text/plain' }],
      ['/v1/track', { 'sec-fetch-site': 'cross-site', 'content-type': 'text/plain' }],
    ] as Array<[string, Record<string, string>]>) {
      const body =
        path === '/v1/track'
          ? pageCall('Forged')
          : JSON.stringify({ writeKey: WRITE_KEY, batch: [{ type: 'track', userId: 'u1', event: 'Forged' }] });
      const refused = await rawRequest(`${intake.url}${path}`, { method: 'POST', headers, body });
      expect(refused.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
    }
    // A preflight from that origin gets no CORS grant either.
    const preflight = await rawRequest(`${intake.url}/v1/track`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    await emulator.drain();
    expect(emulator.deliveries).toEqual([]);
    expect(bodies).toEqual([]);
  });

  it('requests without Origin (server-side clients) and pages on loopback origins keep working, with exact CORS answers', async () => {
    const { emulator, intake, bodies } = await setup();
    const server = await rawRequest(`${intake.url}/v1/track`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: pageCall('Server'),
    });
    expect(server.status).toBe(200);
    expect(server.headers['access-control-allow-origin']).toBeUndefined();
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:5173', 'http://[::1]:8000']) {
      const page = await rawRequest(`${intake.url}/v1/track`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', origin, 'sec-fetch-site': 'cross-site' },
        body: pageCall(origin),
      });
      expect(page.status, origin).toBe(200);
      expect(page.headers['access-control-allow-origin']).toBe(origin);
      expect(page.headers.vary).toMatch(/Origin/);
      expect(page.headers['access-control-allow-credentials']).toBeUndefined();
      const preflight = await rawRequest(`${intake.url}/v1/batch`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, authorization, x-evil',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe(origin);
      expect(preflight.headers['access-control-allow-methods']).toBe('POST');
      expect(preflight.headers['access-control-allow-headers']).toBe('content-type, authorization');
      expect(preflight.headers.vary).toMatch(/Origin/);
    }
    await emulator.drain();
    expect(bodies.length).toBe(4);
  });

  it('allowOrigins allows exactly the origins it names', async () => {
    const { emulator, intake } = await setup(['https://App.example.com:443']);
    const post = (origin: string) =>
      rawRequest(`${intake.url}/v1/track`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', origin },
        body: pageCall(origin),
      });
    const allowed = await post('https://app.example.com');
    expect(allowed.status).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.com');
    for (const other of [
      'http://app.example.com',
      'https://app.example.com:8443',
      'https://app.example.com.evil.example',
      'https://evil.example',
    ]) {
      expect((await post(other)).status, other).toBe(403);
    }
    await emulator.drain();
    expect(emulator.deliveries.length).toBe(1);
    expect(() => createIntakeListener(emulator, { allowOrigins: ['https://app.example.com/path'] })).toThrow(
      /allowOrigins\[0\] must be a web origin/,
    );
  });
});

describe('a real browser page on a loopback origin (chromium)', () => {
  let browser: RunningBrowser | undefined;
  beforeAll(async () => {
    if (existsSync(CHROMIUM_PATH)) browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it.skipIf(!existsSync(CHROMIUM_PATH))(
    'posts text/plain with the write key from http://localhost:PORT and is delivered; the answer is readable (exact CORS)',
    async () => {
      const { emulator, intake, bodies } = await setup();
      const page = await startHttpServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>');
      });
      open.push(page);
      const tab = await browser!.browser.newPage();
      try {
        await tab.goto(`http://localhost:${page.port}/`);
        const result = await tab.evaluate(
          async ({ url, body }) => {
            const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body });
            return { status: r.status, text: await r.text() };
          },
          { url: `${intake.url}/v1/track`, body: pageCall('From the page') },
        );
        expect(result.status).toBe(200);
        expect(JSON.parse(result.text)).toMatchObject({ success: true });
      } finally {
        await tab.close();
      }
      await emulator.drain();
      expect(bodies.length).toBe(1);
      expect(bodies[0]).toContain('From the page');
    },
    60_000,
  );
});

describe('hookgate serve --allow-origin (spawned)', () => {
  it('allows exactly the origin named; a bad origin is a usage error naming the flag', async () => {
    const rx: RunningServer = await startHttpServer((_req, res) => void res.writeHead(200).end('{}'));
    open.push(rx);
    const serve = startCliFromSources([
      'serve',
      '--port',
      '0',
      '--endpoint',
      `${rx.url}/hook`,
      '--write-key',
      WRITE_KEY,
      '--allow-origin',
      'https://app.example.com',
    ]);
    open.push({ close: async () => void (serve.child.exitCode === null && serve.child.kill('SIGKILL')) });
    const url = (await serve.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/))[1] as string;
    const post = (origin: string) =>
      rawRequest(`${url}/v1/track`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', origin },
        body: pageCall(origin),
      });
    const ok = await post('https://app.example.com');
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect((await post('https://other.example.com')).status).toBe(403);
    serve.child.kill('SIGINT');
    expect(await serve.exited).toBe(0);
    const bad = startCliFromSources([
      'serve',
      '--port',
      '0',
      '--endpoint',
      `${rx.url}/hook`,
      '--allow-origin',
      'https://app.example.com/path',
    ]);
    expect(await bad.exited).toBe(2);
    expect(bad.err()).toMatch(/--allow-origin must be a web origin/);
  }, 60_000);
});
