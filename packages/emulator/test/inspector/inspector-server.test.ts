// The inspector's HTTP side, through real requests on 127.0.0.1: masking, CSP, CSRF, Host and token
// checks, the list's cursor and filters, the actions, `hookgate replay`, and the curl command.
import { execFile } from 'node:child_process';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify } from '@hookgate/core';
import { createEmulator, listenIntake, type Emulator, type IntakeServer } from '@hookgate/emulator';
import { main } from '../../src/cli/main.js';
import { startCaptureReceiver, type CaptureReceiver } from '../helpers/capture-receiver.js';

const SECRET = 'whsec-server-secret-0c1d2e';
const PASSWORD = 'pw-in-the-url-7788';
const QUERY_TOKEN = 'qtoken-4455aa';
const HEADER_TOKEN = 'Bearer header-cred-9911';
const API_KEY = 'sk_live_apikey-cred-5522';
const WRITE_KEY = 'wk_server_tests';
const ACT = { 'content-type': 'application/json', 'x-hookgate-inspector': '1' };

let receiver: CaptureReceiver;
let emulator: Emulator;
let intake: IntakeServer;

/** A raw request (node:http), so the test controls every header, Host and Origin included. */
function request(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? 'GET', headers: init.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

function expectNoSecret(text: string, signatures: string[]): void {
  for (const s of [SECRET, PASSWORD, QUERY_TOKEN, 'header-cred-9911', API_KEY, WRITE_KEY, ...signatures])
    expect(text).not.toContain(s);
}

beforeAll(async () => {
  receiver = await startCaptureReceiver((req) => (req.json.event === 'Always Fails' ? 500 : 200));
  emulator = createEmulator({
    sources: [
      {
        writeKey: WRITE_KEY,
        name: 'server tests',
        webhooks: {
          enabled: true,
          endpoints: [
            {
              url: `http://hook:${PASSWORD}@127.0.0.1:${receiver.port}/in?token=${QUERY_TOKEN}`,
              headers: { Authorization: HEADER_TOKEN, 'X-Api-Key': API_KEY, 'X-Env': 'test' },
            },
          ],
          sharedSecret: SECRET,
        },
      },
    ],
    retry: { initialDelayMs: 3_600_000, jitter: 'none' },
  });
  intake = await emulator.listen();
});

afterAll(async () => {
  await intake.close();
  await emulator.close();
  await receiver.close();
});

describe('masking', () => {
  it('never sends the shared secret, URL password, query token, credential headers or a full signature to the page, its JSON or its stream', async () => {
    // A stream open while the deliveries happen, to capture what SSE sends.
    const streamed: string[] = [];
    const sse = http.get(`${intake.url}/_hookgate/events`, (res) =>
      res.on('data', (c: Buffer) => streamed.push(c.toString('utf8'))),
    );
    await new Promise((r) => setTimeout(r, 100));
    const ok = emulator.track({ userId: 'u-mask', event: 'Masked Event' });
    const failing = emulator.track({ userId: 'u-mask', event: 'Always Fails' });
    await new Promise<void>((resolve) => {
      const check = () => (ok.state === 'delivered' && failing.nextAttemptAt ? resolve() : setTimeout(check, 20));
      check();
    });
    await new Promise((r) => setTimeout(r, 400));
    sse.destroy();
    const signatures = [ok.signature as string, failing.signature as string];
    expect(receiver.received[0]?.headers.authorization).toBe(HEADER_TOKEN);
    expect(receiver.received[0]?.headers['x-api-key']).toBe(API_KEY);
    const pages = await Promise.all(
      [
        '/',
        '/_hookgate/ui/app.js',
        '/_hookgate/ui/api/meta',
        '/_hookgate/ui/api/deliveries',
        `/_hookgate/ui/api/deliveries/${ok.id}`,
        `/_hookgate/ui/api/deliveries/${failing.id}`,
        '/_hookgate/deliveries',
      ].map((p) => request(`${intake.url}${p}`)),
    );
    for (const p of pages) {
      expect(p.status).toBe(200);
      expectNoSecret(p.text, signatures);
    }
    const stream = streamed.join('');
    expect(stream).toContain('Masked Event');
    expectNoSecret(stream, signatures);
    const detail = JSON.parse(pages[4]?.text ?? '{}') as {
      headers: Record<string, string>;
      endpoints: string[];
      curl: string;
      attemptList: unknown[];
    };
    expect(detail.headers['X-Signature']).toBe(`${ok.signature?.slice(0, 6)}…(40 chars)`);
    // One masking rule for every view (redactHeaders): each endpoint header's value is hidden whole.
    expect(detail.headers.Authorization).toBe('***');
    expect(detail.headers['X-Api-Key']).toBe('***');
    expect(detail.curl).toContain(`-H 'X-Api-Key: ***'`);
    expect(detail.headers['X-Env']).toBe('***');
    expect(detail.headers['User-Agent']).toBe('Segment.io/1.0');
    expect(detail.endpoints).toEqual([`http://hook:***@127.0.0.1:${receiver.port}/in?token=***`]);
    const failed = JSON.parse(pages[5]?.text ?? '{}') as {
      nextAttemptAt: string;
      windowEndsAt: string;
      attemptList: Array<{ status: number; responseStart: string }>;
    };
    expect(failed.attemptList[0]?.status).toBe(500);
    expect(Date.parse(failed.windowEndsAt) - Date.parse(failing.firstAttemptAt as string)).toBe(4 * 3_600_000);
  });

  it('Copy as curl resends the exact body with a signature the shell computes from $HOOKGATE_SECRET', async () => {
    const record = emulator.track({ userId: "u-curl-'quote'", event: 'Curl $HOME `date` "x"' });
    while (record.state === 'pending') await new Promise((r) => setTimeout(r, 10));
    const detail = JSON.parse((await request(`${intake.url}/_hookgate/ui/api/deliveries/${record.id}`)).text) as {
      curl: string;
    };
    expectNoSecret(detail.curl, [record.signature as string]);
    // The masked URL is the only thing to change: point it at a verifying receiver.
    let verdict: unknown;
    let body = '';
    const check = await startCaptureReceiver((req) => {
      body = req.text;
      verdict = verify({ rawBody: req.body, signature: req.headers['x-signature'], secret: SECRET, forms: ['raw'] });
      return 200;
    });
    const command = detail.curl.replace(/'http:\/\/hook:\*\*\*@[^']*'/, `'${check.url}/verify'`);
    await new Promise<void>((resolve, reject) =>
      execFile('bash', ['-c', command], { env: { ...process.env, HOOKGATE_SECRET: SECRET } }, (error) =>
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- execFile's error is an ExecFileException, an Error
        error ? reject(error) : resolve(),
      ),
    );
    await check.close();
    expect(body).toBe(record.body);
    expect(verdict).toMatchObject({ ok: true });
  });
});

describe('page security', () => {
  it('serves the page with a strict CSP, no inline script or style', async () => {
    const res = await request(`${intake.url}/`);
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(res.text).not.toMatch(/\sstyle=|<style|\son[a-z]+=/i);
    const js = await request(`${intake.url}/_hookgate/ui/app.js`);
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
    expect(js.text).not.toContain('innerHTML');
    // Vitest runs the sources: the page was built from inspector-ui/ on the fly (the built path has its own test).
    expect(js.text.startsWith('/* hookgate inspector: built from inspector-ui/ on the fly')).toBe(true);
  });

  it('refuses a Host that is not loopback (DNS rebinding)', async () => {
    for (const path of ['/', '/_hookgate/ui/api/deliveries', '/_hookgate/events']) {
      const res = await request(`${intake.url}${path}`, { headers: { host: 'evil.example:80' } });
      expect(res.status).toBe(403);
    }
    expect((await request(`${intake.url}/`, { headers: { host: `localhost:${intake.port}` } })).status).toBe(200);
  });

  it('refuses actions without the CSRF header, from another Origin, or by GET', async () => {
    const record = emulator.track({ userId: 'u-csrf', event: 'Csrf Target' });
    const url = `${intake.url}/_hookgate/deliveries/${record.id}/replay`;
    const before = emulator.deliveries.length;
    expect(
      (await request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status,
    ).toBe(403);
    expect(
      (await request(url, { method: 'POST', headers: { ...ACT, origin: 'http://evil.example' }, body: '{}' })).status,
    ).toBe(403);
    expect((await request(url, { method: 'POST', headers: { ...ACT, origin: 'null' }, body: '{}' })).status).toBe(403);
    expect((await request(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' })).status).toBe(
      403,
    );
    expect((await request(url)).status).toBe(405);
    expect(emulator.deliveries.length).toBe(before);
    const ok = await request(url, { method: 'POST', headers: { ...ACT, origin: intake.url }, body: '{}' });
    expect(ok.status).toBe(202);
    expect(emulator.deliveries.length).toBe(before + 1);
    expect(emulator.deliveries.at(-1)?.replayOf).toBe(record.id);
  });

  it('needs a token off loopback: refuses to start without one, then asks for it', async () => {
    await expect(listenIntake(emulator, { host: '0.0.0.0' })).rejects.toThrow(/exposes the web inspector.*token/);
    await expect(listenIntake(emulator, { host: '0.0.0.0', inspector: { token: 'short' } })).rejects.toThrow(
      /at least 16/,
    );
    const token = 'tok-0123456789abcdef';
    const open = await listenIntake(emulator, { host: '0.0.0.0', inspector: { token } });
    try {
      const base = `http://127.0.0.1:${open.port}`;
      expect((await request(`${base}/`)).status).toBe(401);
      expect(
        (
          await request(`${base}/_hookgate/ui/api/deliveries`, {
            headers: { authorization: 'Bearer tok-0123456789abcdeX' },
          })
        ).status,
      ).toBe(401);
      const login = await request(`${base}/?token=${token}`);
      expect(login.status).toBe(303);
      const cookie = String(login.headers['set-cookie']).split(';')[0] as string;
      expect(login.headers['set-cookie']?.[0]).toMatch(/HttpOnly; SameSite=Strict/);
      const page = await request(`${base}/`, { headers: { cookie, host: '192.168.1.20:8080' } });
      expect(page.status).toBe(200);
      // A name other than loopback or the bound host is refused even with the token (DNS rebinding).
      expect((await request(`${base}/`, { headers: { cookie, host: 'my-laptop.lan' } })).status).toBe(403);
      expect(page.text).not.toContain(token);
      expect(
        (await request(`${base}/_hookgate/ui/api/deliveries`, { headers: { authorization: `Bearer ${token}` } }))
          .status,
      ).toBe(200);
      // The intake's tracking API is not the inspector: it keeps its write-key rule.
      const intakeAnswer = await request(`${base}/v1/track`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(intakeAnswer.status).toBe(401);
      expect(intakeAnswer.text).toContain('missing_write_key');
    } finally {
      await open.close();
    }
    const off = await listenIntake(emulator, { host: '0.0.0.0', inspector: false });
    expect((await request(`http://127.0.0.1:${off.port}/`)).status).toBe(404);
    await off.close();
  });
});

describe('list API', () => {
  it('pages newest first with a cursor, without gaps or repeats, and filters', async () => {
    const em = createEmulator({
      sources: [{ writeKey: 'wk_list', name: 'list', webhooks: { enabled: false, endpoints: [] } }],
    });
    for (let i = 0; i < 250; i++)
      em.ingest(
        i % 5 === 0
          ? { type: 'identify', userId: `list-user-${i}` }
          : { type: 'track', userId: `list-user-${i}`, event: `Event ${i}` },
        { writeKey: 'wk_list' },
      );
    const server = await em.listen();
    try {
      const seen: string[] = [];
      let next: number | null | undefined;
      do {
        const r = JSON.parse(
          (await request(`${server.url}/_hookgate/ui/api/deliveries${next ? `?before=${next}` : ''}`)).text,
        ) as { items: Array<{ id: string; seq: number }>; next: number | null };
        seen.push(...r.items.map((x) => x.id));
        next = r.next;
      } while (next);
      expect(seen).toEqual(em.deliveries.map((r) => r.id).reverse());
      const identify = JSON.parse(
        (await request(`${server.url}/_hookgate/ui/api/deliveries?type=identify&limit=500`)).text,
      ) as { items: Array<{ type: string }> };
      expect(identify.items).toHaveLength(50);
      expect(identify.items.every((x) => x.type === 'identify')).toBe(true);
      const search = JSON.parse((await request(`${server.url}/_hookgate/ui/api/deliveries?q=LIST-USER-123`)).text) as {
        items: Array<{ userId: string }>;
      };
      expect(search.items.map((x) => x.userId)).toEqual(['list-user-123']);
      const event = JSON.parse((await request(`${server.url}/_hookgate/ui/api/deliveries?q=event%2024`)).text) as {
        items: Array<{ summary: string }>;
      };
      expect(event.items.map((x) => x.summary)).toEqual([
        'Event 249',
        'Event 248',
        'Event 247',
        'Event 246',
        'Event 244',
        'Event 243',
        'Event 242',
        'Event 241',
        'Event 24',
      ]);
      const bad = await request(`${server.url}/_hookgate/ui/api/deliveries?state=lost`);
      expect(bad.status).toBe(400);
      expect(bad.text).toContain('state must be one of');
      expect((await request(`${server.url}/_hookgate/ui/api/deliveries/dlv_999999`)).status).toBe(404);
    } finally {
      await server.close();
      await em.close();
    }
  });

  it('filters on an endpoint, shown masked', async () => {
    const a = await startCaptureReceiver();
    const em = createEmulator({
      sources: [
        { writeKey: 'wk_a', webhooks: { enabled: true, endpoints: [{ url: `${a.url}/a?key=s3` }] } },
        { writeKey: 'wk_b', webhooks: { enabled: true, endpoints: [{ url: `${a.url}/b` }] } },
      ],
    });
    em.track({ userId: 'ua', event: 'To A' }, { writeKey: 'wk_a' });
    em.track({ userId: 'ub', event: 'To B' }, { writeKey: 'wk_b' });
    await em.drain();
    const server = await em.listen();
    try {
      const meta = JSON.parse((await request(`${server.url}/_hookgate/ui/api/meta`)).text) as { endpoints: string[] };
      expect(meta.endpoints).toEqual([`${a.url}/a?key=***`, `${a.url}/b`]);
      const onlyA = JSON.parse(
        (
          await request(
            `${server.url}/_hookgate/ui/api/deliveries?endpoint=${encodeURIComponent(`${a.url}/a?key=***`)}`,
          )
        ).text,
      ) as { items: Array<{ summary: string }> };
      expect(onlyA.items.map((x) => x.summary)).toEqual(['To A']);
    } finally {
      await server.close();
      await em.close();
      await a.close();
    }
  });
});

describe('actions', () => {
  it('Retry now starts a waiting retry, and answers 409 when none waits', async () => {
    const record = emulator.track({ userId: 'u-retry', event: 'Always Fails' });
    while (!record.nextAttemptAt) await new Promise((r) => setTimeout(r, 10));
    const res = await request(`${intake.url}/_hookgate/deliveries/${record.id}/retry`, {
      method: 'POST',
      headers: ACT,
      body: '{}',
    });
    expect(res.status).toBe(202);
    while (record.attempts.length < 2) await new Promise((r) => setTimeout(r, 10));
    expect(record.attempts[1]?.round).toBe(2);
    const done = emulator.deliveries.find((r) => r.state === 'delivered') as { id: string };
    const again = await request(`${intake.url}/_hookgate/deliveries/${done.id}/retry`, {
      method: 'POST',
      headers: ACT,
      body: '{}',
    });
    expect(again.status).toBe(409);
    expect(again.text).toContain('use Replay');
  });

  it('Send test event validates with core (issues name their path) and delivers', async () => {
    const bad = await request(`${intake.url}/_hookgate/send-test`, {
      method: 'POST',
      headers: ACT,
      body: JSON.stringify({
        message: { version: 1, type: 'track', userId: 'u', timestamp: '2026-01-01T00:00:00.000Z' },
      }),
    });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text).issues).toContainEqual({ path: '$.event', message: 'is required' });
    const before = receiver.received.length;
    const alias = await request(`${intake.url}/_hookgate/send-test`, {
      method: 'POST',
      headers: ACT,
      body: JSON.stringify({
        message: {
          version: 1,
          type: 'alias',
          'Previous ID': 'anon-1',
          'User ID': 'u-alias',
          timestamp: '2026-01-01T00:00:00.000Z',
        },
      }),
    });
    expect(alias.status).toBe(202);
    while (receiver.received.length === before) await new Promise((r) => setTimeout(r, 10));
    expect(receiver.received.at(-1)?.json).toMatchObject({
      type: 'alias',
      'Previous ID': 'anon-1',
      'User ID': 'u-alias',
      timestamp: '2026-01-01T00:00:00.000Z',
    });
  });

  it('hookgate replay <id> replays through the running serve; an unknown id fails with the reason', async () => {
    const record = emulator.track({ userId: 'u-cli', event: 'Cli Replay' });
    while (record.state === 'pending') await new Promise((r) => setTimeout(r, 10));
    const out: string[] = [];
    const err: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    const writeErr = process.stderr.write.bind(process.stderr);
    process.stdout.write = (c: string) => (out.push(String(c)), true);
    process.stderr.write = (c: string) => (err.push(String(c)), true);
    let code: number;
    let missing: number;
    let usage: number;
    try {
      code = await main(['replay', record.id, '--url', intake.url]);
      missing = await main(['replay', 'dlv_987654', '--url', intake.url]);
      usage = await main(['replay', 'nope']);
    } finally {
      process.stdout.write = write;
      process.stderr.write = writeErr;
    }
    expect(code).toBe(0);
    expect(out.join('')).toMatch(new RegExp(`^${record.id} replayed as dlv_\\d+\\n$`));
    const copy = emulator.deliveries.find((r) => r.replayOf === record.id);
    expect(copy?.body).toBe(record.body);
    expect(missing).toBe(1);
    expect(err.join('')).toContain('404 Cannot replay "dlv_987654"');
    expect(usage).toBe(2);
  });
});

describe('hostile requests', () => {
  it('answers a malformed id, unknown API paths and odd methods without crashing', async () => {
    expect((await request(`${intake.url}/_hookgate/ui/api/deliveries/%E0%A4%A`)).status).toBe(400);
    expect((await request(`${intake.url}/_hookgate/ui/api/nope`)).status).toBe(404);
    expect((await request(`${intake.url}/_hookgate/ui/api/deliveries/dlv_1/extra`)).status).toBe(404);
    expect((await request(`${intake.url}/_hookgate/ui/other.js`)).status).toBe(404);
    expect((await request(`${intake.url}/`, { method: 'DELETE' })).status).toBe(405);
    const huge = await request(`${intake.url}/_hookgate/send-test`, {
      method: 'POST',
      headers: ACT,
      body: 'x'.repeat(70_000),
    });
    expect(huge.status).toBe(413);
    const notJson = await request(`${intake.url}/_hookgate/send-test`, {
      method: 'POST',
      headers: ACT,
      body: '{"message":',
    });
    expect(notJson.status).toBe(400);
    // Fifty actions at once: each answered, each replay recorded once.
    const target = emulator.deliveries.find((r) => r.state === 'delivered') as { id: string };
    const before = emulator.deliveries.filter((r) => r.replayOf === target.id).length;
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        request(`${intake.url}/_hookgate/deliveries/${target.id}/replay`, { method: 'POST', headers: ACT, body: '{}' }),
      ),
    );
    expect(answers.every((a) => a.status === 202)).toBe(true);
    expect(emulator.deliveries.filter((r) => r.replayOf === target.id).length - before).toBe(50);
    expect((await request(`${intake.url}/_hookgate/health`)).status).toBe(200);
  });
});

describe('live stream', () => {
  it('merges a burst: one row per record, and a reset after more than 200 changes', async () => {
    const em = createEmulator({ sources: [{ writeKey: 'wk_burst', webhooks: { enabled: false, endpoints: [] } }] });
    const server = await em.listen();
    const chunks: string[] = [];
    const sse = http.get(`${server.url}/_hookgate/events`, (res) =>
      res.on('data', (c: Buffer) => chunks.push(c.toString('utf8'))),
    );
    try {
      while (!chunks.join('').includes('event: hello')) await new Promise((r) => setTimeout(r, 10));
      em.track({ userId: 'u-one', event: 'One' });
      while (!chunks.join('').includes('event: deliveries')) await new Promise((r) => setTimeout(r, 10));
      const first = /event: deliveries\ndata: (.*)\n\n/.exec(chunks.join(''))?.[1] as string;
      expect(JSON.parse(first)).toMatchObject({ changed: [{ id: 'dlv_1', summary: 'One', state: 'filtered' }] });
      chunks.length = 0;
      for (let i = 0; i < 500; i++) em.track({ userId: `u${i}`, event: 'Burst' });
      while (!chunks.join('').includes('event: deliveries')) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 300));
      const events = chunks
        .join('')
        .split('\n\n')
        .filter((e) => e.startsWith('event: deliveries'));
      expect(events).toEqual(['event: deliveries\ndata: {"reset":true}']);
    } finally {
      sse.destroy();
      await server.close();
      await em.close();
    }
  });
});

describe('send test event: delete', () => {
  it('sends a delete as a deletion notice to the source', async () => {
    const before = receiver.received.length;
    const res = await request(`${intake.url}/_hookgate/send-test`, {
      method: 'POST',
      headers: ACT,
      body: JSON.stringify({ message: { type: 'delete', userId: 'u-gone', timestamp: '2026-01-01T00:00:00.000Z' } }),
    });
    expect(res.status).toBe(202);
    expect(JSON.parse(res.text).records).toHaveLength(1);
    while (receiver.received.length === before) await new Promise((r) => setTimeout(r, 10));
    expect(receiver.received.at(-1)?.json).toMatchObject({ type: 'delete', userId: 'u-gone' });
  });
});
