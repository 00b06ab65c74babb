// Credentials never leave the request: an endpoint URL's password and query token, the shared secret
// and full signatures appear in no output — serve's banner, lines, errors, summary (text and --json),
// DEBUG lines, the deliveries HTTP view, send, conformance, emulator.sources and record JSON — while
// the requests themselves carry the real URL.
import { createReceiver, toNodeListener } from '@hookgate/core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, listenIntake } from '@hookgate/emulator';
import { REFUSED_ORIGIN, readAll, startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';
import { postCall, requireBuiltCli, runCli, startServe } from '../helpers/cli-process.js';

const PASSWORD = 's3cretpw';
const TOKEN = 'tok123';
const SECRET = 'SHARED-s3cret-XYZ';
/** A capability URL's secret path segment (Slack-style): masked like a password. */
const PATH_TOKEN = 'pAtHt0kEn9x8y7z6w5v4';
const servers: RunningServer[] = [];
beforeAll(() => requireBuiltCli());
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

interface Seen {
  url: string;
  authorization: string | undefined;
  signature: string | undefined;
}

/** A receiver that records what each request carried, answers 500 to the first, 400 to "Bad" events, 200 otherwise. */
async function credentialReceiver() {
  const seen: Seen[] = [];
  const server = await startHttpServer(async (req, res) => {
    const body = (await readAll(req)).toString('utf8');
    seen.push({
      url: req.url ?? '',
      authorization: req.headers.authorization,
      signature: req.headers['x-signature'] as string | undefined,
    });
    res.writeHead(seen.length === 1 ? 500 : body.includes('"Bad"') ? 400 : 200).end();
  });
  servers.push(server);
  return {
    server,
    seen,
    url: `http://user:${PASSWORD}@127.0.0.1:${server.port}/hook/${PATH_TOKEN}?token=${TOKEN}&x=1`,
  };
}

function deadUrl(): string {
  return `http://user:${PASSWORD}@${new URL(REFUSED_ORIGIN).host}/hook/${PATH_TOKEN}?token=${TOKEN}`;
}

function expectClean(text: string, signatures: Array<string | undefined>, where: string): void {
  expect(text, where).not.toContain(PASSWORD);
  expect(text, where).not.toContain(TOKEN);
  expect(text, where).not.toContain(PATH_TOKEN);
  expect(text, where).not.toContain(SECRET);
  for (const s of signatures) if (s) expect(text, where).not.toContain(s);
}

describe('no credential in any output', { timeout: 180000 }, () => {
  it('hookgate serve (text and --json, DEBUG on): banner, attempt lines, connection errors, give-up reasons, summary, and GET /_hookgate/deliveries', async () => {
    for (const json of [false, true]) {
      const { url, seen } = await credentialReceiver();
      const dead = deadUrl();
      const serve = startServe(
        [
          '--endpoint',
          url,
          '--endpoint',
          dead,
          '--secret',
          SECRET,
          '--header',
          `Authorization: Bearer ${TOKEN}`,
          '--retry-initial-delay-ms',
          '20',
          '--retry-jitter',
          'none',
          '--retry-window-ms',
          '400',
          '--drain-ms',
          '100',
          ...(json ? ['--json'] : []),
        ],
        { DEBUG: 'hookgate' },
      );
      const [, intake] = await serve.waitFor(/(?:listening on |"url":")(http:\/\/127\.0\.0\.1:\d+)/);
      await postCall(intake!, '/v1/track', 'hookgate-dev', { userId: 'u1', event: 'Good' });
      await postCall(intake!, '/v1/track', 'hookgate-dev', { userId: 'u2', event: 'Bad' });
      await serve.waitFor(/gave up|"outcome":"fail"/, 60_000);
      await new Promise((r) => setTimeout(r, 500)); // the bad one's retries to the dead endpoint run out
      const view = await (await fetch(`${intake}/_hookgate/deliveries`)).text();
      serve.child.kill('SIGINT');
      expect(await serve.exited).toBe(0);
      const signatures = seen.map((s) => s.signature);
      // The requests used the real URL and the real secret.
      expect(seen.length).toBeGreaterThanOrEqual(2);
      expect(seen[0]!.url).toBe(`/hook/${PATH_TOKEN}?token=${TOKEN}&x=1`);
      expect(seen[0]!.authorization).toBe(`Bearer ${TOKEN}`); // the endpoint header wins over the URL's userinfo
      expect(signatures.every((s) => /^[0-9a-f]{40}$/.test(s ?? ''))).toBe(true);
      const all = `${serve.out()}\n${serve.err()}`;
      expectClean(all, signatures, json ? 'serve --json' : 'serve');
      expectClean(view, signatures, 'deliveries view');
      // What is shown instead: the masked URL, in the banner or listening line, the lines and the summary.
      expect(all).toContain(`http://user:***@127.0.0.1:`);
      expect(all).toContain('/hook/***?token=***&x=***');
      expect(all).toMatch(/ECONNREFUSED/); // the connection errors are there, without the URL's secrets
      expect(serve.err()).toMatch(/hookgate:emulator .* POST http:\/\/user:\*\*\*@/); // DEBUG lines were on
      const parsed = JSON.parse(view) as {
        deliveries: Array<{
          state: string;
          reason?: string;
          attempts: Array<{ endpoint: string; requestHeaders: Record<string, string> }>;
        }>;
      };
      expect(parsed.deliveries.some((d) => d.state === 'failed' && /gave up/.test(d.reason ?? ''))).toBe(true);
      expect(parsed.deliveries[0]!.attempts[0]!.requestHeaders.Authorization).toBe('***');
    }
  });

  it('hookgate send and conformance: lines, JSON, reports and errors', async () => {
    const rx = createReceiver({ secret: SECRET, onMessage: () => {}, logger: { warn: () => {} } });
    const listener = toNodeListener(rx);
    const signatures: string[] = [];
    const good = await startHttpServer((req, res) => {
      if (typeof req.headers['x-signature'] === 'string') signatures.push(req.headers['x-signature']);
      return listener(req, res);
    });
    servers.push(good);
    const url = `http://user:${PASSWORD}@127.0.0.1:${good.port}/hook?token=${TOKEN}`;
    const dead = deadUrl();
    const runs = await Promise.all([
      runCli(['send', 'track', '--to', url, '--secret', SECRET]),
      runCli(['send', 'track', '--to', url, '--secret', SECRET, '--json']),
      runCli(['send', 'track', '--to', dead, '--secret', SECRET]),
      runCli(['send', 'track', '--to', dead, '--json'], { env: { HOOKGATE_SECRET: SECRET } }),
      runCli(['conformance', url, '--secret', SECRET, '--progress']),
      runCli(['conformance', url, '--json'], { env: { HOOKGATE_SECRET: SECRET } }),
      runCli(['conformance', dead, '--secret', SECRET]),
      runCli(['conformance', dead, '--secret', SECRET, '--json']),
      runCli(['send', 'track', '--to', `ftp://user:${PASSWORD}@h/?token=${TOKEN}`]),
      runCli(['serve', '--endpoint', `ftp://user:${PASSWORD}@h/?token=${TOKEN}`]),
    ]);
    expect(runs.map((r) => r.code)).toEqual([0, 0, 2, 2, 0, 0, 2, 2, 2, 2]); // an unreachable target is exit code 2, as for conformance
    expect(signatures.length).toBeGreaterThan(20);
    runs.forEach((r, i) => expectClean(`${r.stdout}\n${r.stderr}`, signatures, `run ${i}`));
    expect(runs[0].stdout).toContain('→ POST http://user:***@127.0.0.1:');
    expect(runs[4].stdout).toMatch(/Receiver conformance: http:\/\/user:\*\*\*@127\.0\.0\.1:\d+\/hook\?token=\*\*\*/);
  });

  it('emulator.sources, attempts, deliveredTo and record JSON in-process', async () => {
    const { url, seen } = await credentialReceiver();
    const emulator = createEmulator({
      sources: [
        {
          writeKey: 'wk',
          webhooks: { enabled: true, endpoints: [{ url, headers: { 'X-Api-Key': TOKEN } }], sharedSecret: SECRET },
        },
      ],
      retry: { initialDelayMs: 10, jitter: 'none' },
      debug: false,
    });
    try {
      const record = emulator.track({ userId: 'u1', event: 'Good' });
      await emulator.drain();
      expect(record.state).toBe('delivered');
      expect(seen.map((s) => s.url)).toEqual([
        `/hook/${PATH_TOKEN}?token=${TOKEN}&x=1`,
        `/hook/${PATH_TOKEN}?token=${TOKEN}&x=1`,
      ]);
      expect(seen[0]!.authorization).toBe(`Basic ${Buffer.from(`user:${PASSWORD}`).toString('base64')}`);
      const signatures = [record.signature];
      expectClean(JSON.stringify(emulator.sources), signatures, 'sources');
      expectClean(JSON.stringify(record), signatures, 'record JSON');
      expectClean(JSON.stringify(emulator.deliveries), signatures, 'deliveries JSON');
      expectClean(
        record.attempts.map((a) => a.endpoint).join(' ') + (record.deliveredTo ?? ''),
        signatures,
        'attempt endpoints',
      );
      expect(record.deliveredTo).toBe(`http://user:***@127.0.0.1:${new URL(url).port}/hook/***?token=***&x=***`);
    } finally {
      await emulator.close();
    }
  });

  it("the deliveries view masks a redirect's Location and errors, shows message bodies as sent, and settings errors mask the URL", async () => {
    const redirecting = await startHttpServer(async (req, res) => {
      await readAll(req);
      res.writeHead(302, { location: `https://elsewhere.example/in?token=${TOKEN}` }).end();
    });
    servers.push(redirecting);
    const emulator = createEmulator({
      sources: [
        {
          writeKey: 'wk',
          webhooks: {
            enabled: true,
            endpoints: [{ url: `http://u:${PASSWORD}@127.0.0.1:${redirecting.port}/h?token=${TOKEN}` }],
            sharedSecret: SECRET,
          },
        },
      ],
      debug: false,
    });
    const intake = await listenIntake(emulator);
    try {
      const record = emulator.track({
        userId: 'u1',
        event: 'E',
        properties: { location: 'https://shop.example/p?utm=keep-me', message: 'http://a:b@c/' },
      });
      await emulator.drain();
      expect(record.state).toBe('failed');
      const view = await (await fetch(`${intake.url}/_hookgate/deliveries`)).text();
      expectClean(view, [record.signature], 'view');
      const d = (
        JSON.parse(view) as {
          deliveries: Array<{
            message: { properties: Record<string, string> };
            attempts: Array<{ responseHeaders: { location: string }; error: { message: string } }>;
          }>;
        }
      ).deliveries[0]!;
      expect(d.attempts[0]!.responseHeaders.location).toBe('https://elsewhere.example/in?token=***');
      expect(d.attempts[0]!.error.message).toMatch(
        /redirects are not followed \(Location: https:\/\/elsewhere\.example\/in\?token=\*\*\*\)/,
      );
      expect(d.message.properties).toEqual({
        location: 'https://shop.example/p?utm=keep-me',
        message: 'http://a:b@c/',
      }); // data, as sent
      // The record itself, not only its views: its reason, its attempt's error and its JSON form.
      expectClean(
        `${record.reason} ${record.attempts[0]!.error?.message} ${JSON.stringify(record)}`,
        [record.signature],
        'record',
      );
      expect(record.reason).toMatch(/Location: https:\/\/elsewhere\.example\/in\?token=\*\*\*/);
    } finally {
      await intake.close();
      await emulator.close();
    }
    // A relative Location (a login redirect) is masked the same way.
    const relative = await startHttpServer(async (req, res) => {
      await readAll(req);
      res.writeHead(307, { location: `/login?next=%2Fh&token=${TOKEN}` }).end();
    });
    servers.push(relative);
    const second = createEmulator({
      sources: [{ writeKey: 'wk', webhooks: { enabled: true, endpoints: [{ url: `${relative.url}/h` }] } }],
      debug: false,
    });
    try {
      const record = second.track({ userId: 'u1', event: 'E' });
      await second.drain();
      expect(record.state).toBe('failed');
      expectClean(`${record.reason} ${JSON.stringify(record)}`, [], 'relative location');
      expect(record.reason).toContain('(Location: /login?next=***&token=***)');
    } finally {
      await second.close();
    }
    expect(() =>
      createEmulator({
        sources: [
          { writeKey: 'k', webhooks: { enabled: true, endpoints: [{ url: `ftp://u:${PASSWORD}@h/?token=${TOKEN}` }] } },
        ],
      }),
    ).toThrow(/"ftp:\/\/u:\*\*\*@h\/\?token=\*\*\*" must use the http or https scheme/);
  });
});
