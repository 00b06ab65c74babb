// A real chromium page on another site, attacking `hookgate serve` and `hookgate listen` started from
// the CLI (from sources). chromium resolves evil.test to 127.0.0.1 (--host-resolver-rules), so a page
// can sit on a foreign origin next to the local servers, and (DNS rebinding) on a foreign name for the
// local server's own port: its requests then go to the local server with Host: evil.test:PORT.
// - Cross-site: a fetch (cors and no-cors, text/plain with the write key in the body) and an
//   auto-submitted form post to the tracking API are refused and nothing is recorded or delivered.
// - Rebinding: same-origin reads of /_hookgate/* and the inspector page are refused on Host, so the
//   page reads neither records nor the write key.
import { existsSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { readAll, startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';
import { CHROMIUM_PATH } from './chromium.js';
import { rawRequest, startCliFromSources } from '../helpers/local-http.js';

const WRITE_KEY = 'wk_browser_attack_0123456789';
const open: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

let browser: Browser | undefined;
beforeAll(async () => {
  if (!existsSync(CHROMIUM_PATH)) return;
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--host-resolver-rules=MAP evil.test 127.0.0.1',
      // chromium's own private-network checks would stop these requests before they reach hookgate;
      // other browsers have none, and the server must hold without them.
      '--disable-features=BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults,LocalNetworkAccessChecks',
    ],
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

/** A receiver that records every body it is sent. */
async function receiver(): Promise<{ rx: RunningServer; bodies: string[] }> {
  const bodies: string[] = [];
  const rx = await startHttpServer(async (req, res) => {
    bodies.push((await readAll(req)).toString('utf8'));
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  open.push(rx);
  return { rx, bodies };
}

/** Starts a CLI command from sources and resolves with its base URL. */
async function cli(args: string[]): Promise<{ url: string; port: number; out(): string; err(): string }> {
  const run = startCliFromSources(args);
  open.push({ close: async () => void (run.child.exitCode === null && run.child.kill('SIGKILL')) });
  const url = (await run.waitFor(/(http:\/\/127\.0\.0\.1:\d+)/))[1] as string;
  return { url, port: Number(new URL(url).port), out: run.out, err: run.err };
}

/** A tab showing attacker HTML at `pageUrl` (served by the test through chromium's routing, whatever the host). */
async function attackerTab(pageUrl: string): Promise<Page> {
  const tab = await browser!.newPage();
  open.push({ close: () => tab.close() });
  await tab.route(pageUrl, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: '<!doctype html><title>a page you merely visit</title>',
    }),
  );
  await tab.goto(pageUrl);
  return tab;
}

describe.skipIf(!existsSync(CHROMIUM_PATH))('a page on another site, in chromium, against hookgate serve', () => {
  it('cannot make the intake record or deliver an event: cors and no-cors fetches, a text/plain form post', async () => {
    const { rx, bodies } = await receiver();
    const serve = await cli([
      'serve',
      '--port',
      '0',
      '--endpoint',
      `${rx.url}/hook`,
      '--write-key',
      WRITE_KEY,
      '--secret',
      'browser-attack-secret',
    ]);
    const tab = await attackerTab('http://evil.test:1/attack.html');
    const call = (event: string) => JSON.stringify({ writeKey: WRITE_KEY, userId: 'victim', event });
    const fetched = await tab.evaluate(
      async ({ url, cors, noCors }) => {
        const out: string[] = [];
        try {
          const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: cors });
          out.push(`cors ${r.status}`);
        } catch (error) {
          out.push(`cors blocked: ${(error as Error).name}`);
        }
        const opaque = await fetch(url, {
          method: 'POST',
          mode: 'no-cors',
          headers: { 'content-type': 'text/plain' },
          body: noCors,
        });
        out.push(`no-cors ${opaque.type}`);
        return out;
      },
      { url: `${serve.url}/v1/track`, cors: call('cors fetch'), noCors: call('no-cors fetch') },
    );
    // The browser cannot read a refusal that carries no CORS header: the fetch fails; no-cors is opaque either way.
    expect(fetched).toEqual(['cors blocked: TypeError', 'no-cors opaque']);
    // A form post: text/plain forms send `name=value`, so the name carries the JSON's start.
    const json = call('form post');
    await tab.evaluate(
      ({ url, name, value }) => {
        const form = document.createElement('form');
        form.method = 'POST';
        form.action = url;
        form.enctype = 'text/plain';
        const input = document.createElement('input');
        input.name = name;
        input.value = value;
        form.append(input);
        document.body.append(form);
        form.submit();
      },
      { url: `${serve.url}/v1/track`, name: json.slice(0, -2), value: `"}` },
    );
    await tab.waitForURL(`${serve.url}/v1/track`);
    expect(await tab.content()).toContain('forbidden_origin');
    // Then the same call from a server-side client (no Origin) is delivered: the intake was listening all along.
    const ok = await rawRequest(`${serve.url}/v1/track`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: call('server side'),
    });
    expect(ok.status).toBe(200);
    const deliveries = await rawRequest(`${serve.url}/_hookgate/deliveries`, { method: 'GET' });
    const recorded = deliveries.text;
    expect(deliveries.status).toBe(200);
    await expect.poll(() => bodies.length, { timeout: 10_000 }).toBe(1);
    expect(bodies[0]).toContain('server side');
    for (const attack of ['cors fetch', 'no-cors fetch', 'form post']) expect(recorded).not.toContain(attack);
  }, 90_000);

  it("DNS rebinding: a page on evil.test:PORT (the intake's own port) reads none of /_hookgate/*, the inspector or the write key", async () => {
    const { rx } = await receiver();
    const serve = await cli(['serve', '--port', '0', '--endpoint', `${rx.url}/hook`, '--write-key', WRITE_KEY]);
    await rawRequest(`${serve.url}/v1/track`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ writeKey: WRITE_KEY, userId: 'u1', event: 'Recorded' }),
    });
    const tab = await attackerTab(`http://evil.test:${serve.port}/rebound.html`);
    const reads = await tab.evaluate(async () => {
      const out: Array<{ path: string; status: number; text: string }> = [];
      for (const path of [
        '/_hookgate/deliveries',
        '/_hookgate/health',
        '/',
        '/_hookgate/ui/api/deliveries',
        '/_hookgate/ui/app.js',
      ]) {
        const r = await fetch(path); // same origin, for the browser: it may read whatever comes back
        out.push({ path, status: r.status, text: await r.text() });
      }
      const events = await fetch('/_hookgate/events');
      out.push({
        path: '/_hookgate/events',
        status: events.status,
        text: events.status === 200 ? 'stream' : await events.text(),
      });
      return out;
    });
    for (const read of reads) {
      expect(read.status, read.path).toBe(403);
      expect(read.text, read.path).not.toContain(WRITE_KEY);
      expect(read.text, read.path).not.toContain('Recorded');
    }
    // The same paths on the loopback name answer (the guard is on the name, not on everything).
    expect((await rawRequest(`${serve.url}/_hookgate/health`, { method: 'GET' })).status).toBe(200);
  }, 90_000);
});

describe.skipIf(!existsSync(CHROMIUM_PATH))('a page on another site, in chromium, against hookgate listen', () => {
  it('DNS rebinding: the inbound log, its stream and the page are refused on Host', async () => {
    const listen = await cli(['listen', '--port', '0', '--secret', 'listen-secret']);
    await rawRequest(`${listen.url}/hook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"type":"track","userId":"u1","event":"Inbound secret","version":1}',
    });
    const tab = await attackerTab(`http://evil.test:${listen.port}/rebound.html`);
    const reads = await tab.evaluate(async () => {
      const out: Array<{ path: string; status: number; text: string }> = [];
      for (const path of ['/_hookgate/inbound', '/_hookgate/inbound/in_1', '/']) {
        const r = await fetch(path);
        out.push({ path, status: r.status, text: await r.text() });
      }
      const events = await fetch('/_hookgate/inbound/events');
      out.push({ path: 'events', status: events.status, text: events.status === 200 ? 'stream' : await events.text() });
      return out;
    });
    for (const read of reads) {
      expect(read.status, read.path).toBe(403);
      expect(read.text, read.path).not.toContain('Inbound secret');
    }
    expect((await rawRequest(`${listen.url}/_hookgate/inbound`, { method: 'GET' })).status).toBe(200);
  }, 90_000);
});
