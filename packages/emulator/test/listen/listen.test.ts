// `listen` (the inbound side of the inspector) over real HTTP on 127.0.0.1: a real sender request,
// a real local receiver (core's receiver, which checks the raw bytes) behind it.
import http from 'node:http';
import { createReceiver, fixture, sign } from '@hookgate/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  REFUSED_ORIGIN,
  readAll,
  startHttpServer,
  type RunningServer,
  type TestListener,
} from '../../../../test/helpers/servers.js';
import { startListener, type InboundRecord, type Listener } from '../../src/index.js';

const SECRET = 'listen-s3cret';
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function listener(options: Parameters<typeof startListener>[0]): Promise<Listener> {
  const l = await startListener(options);
  open.push(l);
  return l;
}

async function server(handler: TestListener): Promise<RunningServer> {
  const s = await startHttpServer(handler);
  open.push(s);
  return s;
}

interface Seen {
  body: Buffer;
  rawHeaders: string[];
  method: string;
  url: string;
}

/** A local receiver that keeps what it got and answers with the real receiver's status table. */
async function realReceiver(): Promise<{ server: RunningServer; seen: Seen[]; handled: string[] }> {
  const seen: Seen[] = [];
  const handled: string[] = [];
  const receiver = createReceiver({
    secret: SECRET,
    onMessage: (m) => void handled.push(m.type),
    logger: { warn: () => {} },
  });
  const s = await server(async (req, res) => {
    const body = await readAll(req);
    seen.push({ body, rawHeaders: req.rawHeaders, method: req.method ?? '', url: req.url ?? '' });
    const answer = await receiver.handle({ method: req.method ?? 'POST', headers: req.headers, rawBody: body });
    res.writeHead(answer.status, answer.headers).end(answer.body);
  });
  return { server: s, seen, handled };
}

async function post(
  url: string,
  body: string | Uint8Array,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    body: body as BodyInit,
    headers: { 'content-type': 'application/json', 'user-agent': 'Segment.io/1.0', ...headers },
  });
  return { status: response.status, text: await response.text() };
}

async function inbound(l: Listener, token?: string): Promise<InboundRecord[]> {
  const response = await fetch(`${l.url}/_hookgate/inbound`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { requests: InboundRecord[] }).requests;
}

const track = () => JSON.stringify(fixture('track', { messageId: `m-${Math.random()}` } as never));

describe('listen forwards the exact bytes and headers, and answers with the receiver', () => {
  it('a signed message: verified, forwarded byte for byte, the receiver handles it, the sender gets 200', async () => {
    const rx = await realReceiver();
    const l = await listener({ secret: SECRET, forwardTo: `${rx.server.url}/webhooks?x=1` });
    const body = track();
    const answer = await post(`${l.url}/any/path`, body, {
      'x-signature': sign(body, SECRET),
      'X-Custom-Static': 'kept',
    });
    expect(answer.status).toBe(200);
    expect(rx.handled).toEqual(['track']);
    expect(rx.seen).toHaveLength(1);
    expect(rx.seen[0]?.body.equals(Buffer.from(body))).toBe(true);
    expect(rx.seen[0]?.url).toBe('/webhooks?x=1');
    const names = rx.seen[0]?.rawHeaders.filter((_, i) => i % 2 === 0) ?? [];
    expect(names).toContain('X-Custom-Static');
    expect(rx.seen[0]?.rawHeaders[rx.seen[0].rawHeaders.indexOf('x-signature') + 1]).toBe(sign(body, SECRET));
    const [record] = await inbound(l);
    expect(record?.verdict).toMatchObject({ ok: true, form: 'raw', secretIndex: 0 });
    expect(record?.forward).toMatchObject({ status: 200, slow: false, timedOut: false });
    expect(record?.type).toBe('track');
    expect(record?.path).toBe('/any/path');
    expect(record?.answeredStatus).toBe(200);
  });

  it('a forged request: recorded as refused with why, still forwarded, the receiver refuses it too', async () => {
    const rx = await realReceiver();
    const l = await listener({ secret: SECRET, forwardTo: rx.server.url });
    const body = track();
    const answer = await post(l.url, body, { 'x-signature': sign(body, 'not-the-secret') });
    expect(answer.status).toBe(401);
    expect(rx.handled).toEqual([]);
    const [record] = await inbound(l);
    expect(record?.verdict.ok).toBe(false);
    if (record?.verdict.ok === false) {
      expect(record.verdict.reason).toBe('mismatch');
      expect(record.verdict.message).toMatch(/does not match these bytes/);
      expect(record.verdict.matchesForm).toBeUndefined();
    }
    expect(record?.forward?.status).toBe(401);
  });

  it('bytes re-encoded after signing: refused, and the explanation names the form it matches and where the bytes differ', async () => {
    const l = await listener({ secret: SECRET });
    const signed = JSON.stringify({ ...fixture('track'), properties: { price: 1 } });
    const sent = signed.replace('"price":1', '"price":1.0');
    const answer = await post(l.url, sent, { 'x-signature': sign(signed, SECRET) });
    expect(answer.status).toBe(401);
    const [record] = await inbound(l);
    if (record?.verdict.ok !== false) throw new Error('expected a refusal');
    expect(record.verdict.matchesForm).toBe('stringify');
    expect(record.verdict.message).toMatch(/re-encoded after signing/);
    expect(record.verdict.findings.map((f) => [f.path, f.cause])).toContainEqual([
      '$.properties.price',
      'number-format',
    ]);
  });

  it('missing and malformed signatures say so', async () => {
    const l = await listener({ secret: SECRET });
    expect((await post(l.url, track())).status).toBe(401);
    expect((await post(l.url, track(), { 'x-signature': 'zz' })).status).toBe(401);
    const records = await inbound(l);
    expect(records.map((r) => (r.verdict.ok ? 'ok' : r.verdict.reason))).toEqual(['malformed', 'missing']);
  });

  it('without --forward-to: 200 for a verified request, 401 for any other; a rotated secret is found by index', async () => {
    const l = await listener({ secret: ['new-secret', SECRET] });
    const body = track();
    const good = await post(l.url, body, { 'x-signature': sign(body, SECRET) });
    expect(good.status).toBe(200);
    expect(JSON.parse(good.text)).toEqual({ verified: true });
    const [record] = await inbound(l);
    expect(record?.verdict).toMatchObject({ ok: true, secretIndex: 1 });
  });

  it('an unreachable receiver: 502 to the sender, the error recorded; a receiver that never answers: 504', async () => {
    const l = await listener({ secret: SECRET, forwardTo: REFUSED_ORIGIN });
    const body = track();
    expect((await post(l.url, body, { 'x-signature': sign(body, SECRET) })).status).toBe(502);
    const [record] = await inbound(l);
    expect(record?.forward?.error).toMatch(/ECONNREFUSED/);
    expect(record?.forward?.status).toBeUndefined();

    const hang = await server(() => {});
    const l2 = await listener({ secret: SECRET, forwardTo: hang.url, forwardTimeoutMs: 300 });
    expect((await post(l2.url, body, { 'x-signature': sign(body, SECRET) })).status).toBe(504);
    const [late] = await inbound(l2);
    expect(late?.forward).toMatchObject({ timedOut: true, slow: true });
  });

  it('a receiver slower than the sender’s 5 s is flagged, with its time and answer', async () => {
    const slow = await server((req, res) => {
      req.resume();
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"late":true}'), 5_150);
    });
    const l = await listener({ secret: SECRET, forwardTo: slow.url });
    const body = track();
    const answer = await post(l.url, body, { 'x-signature': sign(body, SECRET) });
    expect(answer.status).toBe(200);
    const [record] = await inbound(l);
    expect(record?.forward).toMatchObject({ status: 200, slow: true, bodyStart: '{"late":true}' });
    expect(record?.forward?.durationMs).toBeGreaterThanOrEqual(5_000);
  }, 15_000);

  it('an oversize body gets 413 (not a reset) and is recorded, not forwarded', async () => {
    const rx = await realReceiver();
    const l = await listener({ secret: SECRET, forwardTo: rx.server.url, maxBodyBytes: 1024 });
    const answer = await post(l.url, Buffer.alloc(4096, 0x20), { 'x-signature': '0'.repeat(40) });
    expect(answer.status).toBe(413);
    const [record] = await inbound(l);
    expect(record?.verdict).toMatchObject({ ok: false, reason: 'too_large' });
    expect(rx.seen).toHaveLength(0);
  });

  it('50 requests at once: each recorded once, forwarded once, with distinct ids', async () => {
    const rx = await realReceiver();
    const l = await listener({ secret: SECRET, forwardTo: rx.server.url });
    const bodies = Array.from({ length: 50 }, () => track());
    const answers = await Promise.all(bodies.map((b) => post(l.url, b, { 'x-signature': sign(b, SECRET) })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const records = await inbound(l);
    expect(new Set(records.map((r) => r.id)).size).toBe(50);
    expect(rx.seen).toHaveLength(50);
    expect(rx.handled).toHaveLength(50);
  });

  it('streams each request live over server-sent events', async () => {
    const l = await listener({ secret: SECRET });
    const events = await fetch(`${l.url}/_hookgate/inbound/events`);
    expect(events.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = events.body!.getReader();
    const body = track();
    await post(l.url, body, { 'x-signature': sign(body, SECRET) });
    let text = '';
    while (!text.includes('event: request')) text += new TextDecoder().decode((await reader.read()).value);
    while (!text.includes('\n\n', text.indexOf('event: request')))
      text += new TextDecoder().decode((await reader.read()).value);
    const data = /data: (.*)\n/.exec(text.slice(text.indexOf('event: request')))?.[1];
    expect(JSON.parse(data ?? 'null')).toMatchObject({ id: 'in_1', verdict: { ok: true } });
    await reader.cancel();
  });
});

describe('listen serves the web inspector with an inbound feed', () => {
  const getWithHost = (l: Listener, path: string, host: string) =>
    new Promise<number>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port: l.port, path, headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject);
    });

  it('GET / is the page (CSP, not recorded); /_hookgate/ui/api/inbound pages newest first; meta lists only inbound', async () => {
    const l = await listener({ secret: SECRET });
    const pageRes = await fetch(`${l.url}/`);
    expect(pageRes.status).toBe(200);
    expect(pageRes.headers.get('content-type')).toMatch(/text\/html/);
    expect(pageRes.headers.get('content-security-policy')).toContain("script-src 'self'");
    await pageRes.text();
    expect((await fetch(`${l.url}/favicon.ico`)).status).toBe(404);
    for (let i = 0; i < 3; i++) {
      const body = track();
      await post(`${l.url}/hook`, body, { 'x-signature': sign(body, i === 1 ? 'wrong' : SECRET) });
    }
    expect(l.log.records).toHaveLength(3); // the page and the icon were not recorded
    const meta = (await (await fetch(`${l.url}/_hookgate/ui/api/meta`)).json()) as { feeds: string[]; mode: string };
    expect(meta).toMatchObject({ feeds: ['inbound'], mode: 'listen' });
    const first = (await (await fetch(`${l.url}/_hookgate/ui/api/inbound?limit=2`)).json()) as {
      items: Array<{ id: string; verdict: { ok: boolean; reason?: string } }>;
      next: number | null;
      total: number;
    };
    expect(first.items.map((r) => r.id)).toEqual(['in_3', 'in_2']);
    expect(first.items[1]?.verdict).toMatchObject({ ok: false, reason: 'mismatch' });
    expect(first.next).toBe(2);
    expect(first.total).toBe(3);
    const older = (await (await fetch(`${l.url}/_hookgate/ui/api/inbound?limit=2&before=2`)).json()) as typeof first;
    expect(older.items.map((r) => r.id)).toEqual(['in_1']);
    expect(older.next).toBeNull();
    expect((await fetch(`${l.url}/_hookgate/ui/api/inbound?limit=0`)).status).toBe(400);
    expect((await fetch(`${l.url}/_hookgate/ui/api/inbound?before=x`)).status).toBe(400);
    expect((await fetch(`${l.url}/_hookgate/ui/api/inbound/in_9`)).status).toBe(404);
    const one = (await (await fetch(`${l.url}/_hookgate/ui/api/inbound/in_2`)).json()) as InboundRecord;
    expect(one.verdict.ok).toBe(false);
    expect(one.headers.some(([name]) => name.toLowerCase() === 'x-signature')).toBe(true);
    // No emulator behind listen: the deliveries feed and its actions do not exist here.
    expect((await fetch(`${l.url}/_hookgate/ui/api/deliveries`)).status).toBe(404);
    expect(
      (
        await fetch(`${l.url}/_hookgate/send-test`, {
          method: 'POST',
          headers: { 'x-hookgate-inspector': '1' },
          body: '{}',
        })
      ).status,
    ).toBe(405);
  });

  it('a foreign Host (DNS rebinding) gets neither the page, the inspector API nor the JSON views; a webhook is still recorded', async () => {
    const l = await listener({ secret: SECRET });
    for (const path of [
      '/',
      '/_hookgate/ui/api/inbound',
      '/_hookgate/events',
      '/_hookgate/inbound',
      '/_hookgate/inbound/in_1',
    ]) {
      expect(await getWithHost(l, path, 'evil.example')).toBe(403);
    }
    expect(await getWithHost(l, '/_hookgate/inbound', `localhost:${l.port}`)).toBe(200);
    const body = track();
    const res = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: l.port,
          path: '/',
          method: 'POST',
          headers: { host: 'hooks.example', 'content-type': 'application/json', 'x-signature': sign(body, SECRET) },
        },
        (r) => {
          r.resume();
          resolve(r.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(res).toBe(200);
    expect(l.log.records.map((r) => r.path)).toEqual(['/']);
  });

  it('with uiToken, the page needs it: /?token= moves it into a cookie, and the API then answers', async () => {
    const token = 'listen-page-token-0123456789';
    const l = await listener({ secret: SECRET, uiToken: token });
    expect((await fetch(`${l.url}/`)).status).toBe(401);
    expect((await fetch(`${l.url}/?token=wrong`)).status).toBe(401);
    const redirect = await fetch(`${l.url}/?token=${token}`, { redirect: 'manual' });
    expect(redirect.status).toBe(303);
    expect(redirect.headers.get('location')).toBe('/');
    const cookie = (redirect.headers.get('set-cookie') ?? '').split(';')[0] as string;
    expect(cookie).toMatch(/^hookgate_ui=/);
    expect((await fetch(`${l.url}/_hookgate/ui/api/inbound`, { headers: { cookie } })).status).toBe(200);
    expect(
      (await fetch(`${l.url}/_hookgate/ui/api/inbound`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
    expect(l.log.records).toHaveLength(0);
  });
});

describe('listen never shows a secret', () => {
  it('no secret, URL password, query token, full signature or authorization in the JSON views or the live stream', async () => {
    const rx = await realReceiver();
    const forward = new URL(rx.server.url);
    forward.username = 'hook';
    forward.password = 'pw-FORWARD-secret';
    forward.search = '?token=tok-FORWARD-secret';
    const l = await listener({ secret: SECRET, forwardTo: forward });
    const events = await fetch(`${l.url}/_hookgate/inbound/events`);
    const reader = events.body!.getReader();
    const body = track();
    const signature = sign(body, SECRET);
    await post(`${l.url}/hook?token=tok-PATH-secret`, body, {
      'x-signature': signature,
      authorization: 'Basic QUTH-secret',
    });
    let stream = '';
    while (!stream.includes('event: request')) stream += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const list = await (await fetch(`${l.url}/_hookgate/inbound`)).text();
    const one = await (await fetch(`${l.url}/_hookgate/inbound/in_1`)).text();
    for (const view of [list, one, stream]) {
      for (const secret of [
        SECRET,
        'pw-FORWARD-secret',
        'tok-FORWARD-secret',
        'tok-PATH-secret',
        'QUTH-secret',
        signature,
      ]) {
        expect(view).not.toContain(secret);
      }
    }
    expect(JSON.parse(one).forward.status).toBe(200); // the credentials were used for the request itself
  });

  it('credential headers by name (X-Api-Key, X-Auth-Token, Proxy-Authorization, Cookie) are masked in every view and stream; the receiver gets them as sent', async () => {
    const rx = await realReceiver();
    const l = await listener({ secret: SECRET, forwardTo: rx.server.url });
    const reader = (await fetch(`${l.url}/_hookgate/inbound/events`)).body!.getReader();
    const body = track();
    const credentials = {
      'X-Api-Key': 'sk_live_APIKEY-secret-0042',
      'X-Auth-Token': 'AUTHTOKEN-secret-0042',
      'Proxy-Authorization': 'Basic PROXY-secret-0042',
      Cookie: 'session=COOKIE-secret-0042',
    };
    // node:http, not fetch: fetch refuses to send Keep-Alive.
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${l.url}/hook`,
        {
          method: 'POST',
          agent: false,
          headers: {
            'Content-Type': 'application/json',
            'User-Agent': 'Segment.io/1.0',
            'Keep-Alive': 'timeout=5',
            'X-Signature': sign(body, SECRET),
            ...credentials,
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(200);
    const views = [
      await (await fetch(`${l.url}/_hookgate/inbound`)).text(),
      await (await fetch(`${l.url}/_hookgate/inbound/in_1`)).text(),
      await (await fetch(`${l.url}/_hookgate/ui/api/inbound`)).text(),
      await (await fetch(`${l.url}/_hookgate/ui/api/inbound/in_1`)).text(),
      await (async () => {
        let text = '';
        while (!text.includes('event: request')) text += new TextDecoder().decode((await reader.read()).value);
        await reader.cancel();
        return text;
      })(),
    ];
    for (const view of views)
      for (const value of Object.values(credentials)) expect(view).not.toContain(value.split(' ').at(-1));
    const headers = Object.fromEntries((JSON.parse(views[1] as string) as InboundRecord).headers);
    expect(headers).toMatchObject({
      'X-Api-Key': '***',
      'X-Auth-Token': '***',
      'Proxy-Authorization': '***',
      Cookie: '***',
    });
    expect(headers).toMatchObject({
      'Keep-Alive': 'timeout=5',
      'Content-Type': 'application/json',
      'User-Agent': 'Segment.io/1.0',
    });
    // Only what is shown changes: the receiver got the real values (Proxy-Authorization is hop-by-hop: not passed on).
    const got = rx.seen[0]!.rawHeaders;
    for (const name of ['X-Api-Key', 'X-Auth-Token', 'Cookie'])
      expect(got[got.indexOf(name) + 1]).toBe(credentials[name as keyof typeof credentials]);
    expect(rx.handled).toEqual(['track']);
  });

  it('off loopback it refuses to start without a token; with one, the views need it and the webhooks do not', async () => {
    await expect(startListener({ secret: SECRET, host: '0.0.0.0' })).rejects.toThrow(/--ui-token or HOOKGATE_UI_TOKEN/);
    await expect(startListener({ secret: SECRET, host: '0.0.0.0', uiToken: 'too-short' })).rejects.toThrow(
      /at least 16 characters/,
    );
    const l = await listener({ secret: SECRET, host: '127.0.0.1', uiToken: 'ui-tok' });
    expect((await fetch(`${l.url}/_hookgate/inbound`)).status).toBe(401);
    const body = track();
    expect((await post(l.url, body, { 'x-signature': sign(body, SECRET) })).status).toBe(200);
    expect(await inbound(l, 'ui-tok')).toHaveLength(1);
  });

  it('bad options name the field', async () => {
    await expect(startListener({ secret: '' })).rejects.toThrow(/secret must be a non-empty string/);
    await expect(startListener({ secret: SECRET, forwardTo: 'ftp://x' })).rejects.toThrow(
      /forwardTo must use http or https/,
    );
    await expect(startListener({ secret: SECRET, maxBodyBytes: 0 })).rejects.toThrow(/maxBodyBytes/);
  });
});

describe('hookgate listen (the CLI, spawned from the sources)', () => {
  it('--json: one JSON object per request on stdout, the banner on stderr, a summary object after SIGINT', async () => {
    const { spawn } = await import('node:child_process');
    const { fileURLToPath } = await import('node:url');
    const root = fileURLToPath(new URL('../../../../', import.meta.url));
    const rx = await realReceiver();
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'packages/emulator/src/cli.ts',
        'listen',
        '--port',
        '0',
        '--json',
        '--forward-to',
        `${rx.server.url}/hook?token=tok-CLI-secret`,
      ],
      { cwd: root, env: { ...process.env, HOOKGATE_SECRET: SECRET }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    const deadline = Date.now() + 20_000;
    while (!/listen on (http:\/\/127\.0\.0\.1:\d+)/.test(stderr)) {
      if (Date.now() > deadline) throw new Error(`no banner: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const url = /listen on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)?.[1] as string;
    expect(stderr).toContain(`inspector  ${url}/\n`);
    const good = track();
    expect(
      (
        await post(url, good, {
          'x-signature': sign(good, SECRET),
          'x-api-key': 'sk_live_CLI-secret-0042',
          'x-auth-token': 'tok-CLI-header-secret',
        })
      ).status,
    ).toBe(200);
    expect((await post(url, good, { 'x-signature': sign(good, 'wrong') })).status).toBe(401);
    while (stdout.split('\n').filter(Boolean).length < 3) {
      if (Date.now() > deadline) throw new Error(`no lines: ${stdout}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGINT');
    expect(await closed).toBe(0);
    const [listening, ...lines] = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(listening).toMatchObject({ kind: 'listening', url, verifying: true });
    expect(listening!.forwardTo).toMatch(/\/hook\?token=\*\*\*$/);
    expect(lines.map((l) => (l.kind === 'summary' ? 'summary' : (l.verdict as { ok: boolean }).ok))).toEqual([
      true,
      false,
      'summary',
    ]);
    expect(lines.map((l) => l.kind)).toEqual(['request', 'request', 'summary']);
    expect(lines[2]).toMatchObject({ requests: 2, verified: 1, refused: 1, forwarded: 2 });
    expect(stdout + stderr).not.toContain('tok-CLI-secret');
    expect(stdout + stderr).not.toContain('CLI-secret-0042');
    expect(stdout + stderr).not.toContain('tok-CLI-header-secret');
    expect(Object.fromEntries(lines[0]!.headers as Array<[string, string]>)).toMatchObject({
      'x-api-key': '***',
      'x-auth-token': '***',
      'user-agent': 'Segment.io/1.0',
    });
    expect(stdout + stderr).not.toContain(SECRET);
  }, 30_000);
});
