// The `hookgate` bin's habits, spawned from its build (packages/emulator/dist/cli.js) in its own
// process against real HTTP servers on 127.0.0.1: "did you mean", one exit-code table for every
// command, one wording for a port in use, serve's log lines and summary in agreement, --json
// events, listen as a catch-all without a secret, and conformance recognising a wrong secret.
import http from 'node:http';
import { createReceiver, toNodeListener } from '@hookgate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';
import { postCall, requireBuiltCli, runCli, startServe, CLI } from '../helpers/cli-process.js';
import { spawn } from 'node:child_process';
import { flagHint, HINTS } from '../../src/cli/serve-options.js';

const SECRET = 'habits-secret';
let receiver: RunningServer;

beforeAll(async () => {
  requireBuiltCli();
  const rx = createReceiver({ secret: SECRET, onMessage: () => {}, logger: { warn: () => {} } });
  receiver = await startHttpServer(toNodeListener(rx));
});

afterAll(async () => {
  await receiver?.close();
});

/** A URL on 127.0.0.1 where nothing listens (a server started, then closed). */
async function deadUrl(): Promise<string> {
  const server = await startHttpServer(() => {});
  await server.close();
  return `${server.url}/hook`;
}

/** Holds a port: a plain server listening on 127.0.0.1:0. */
async function holdPort(): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('did you mean', () => {
  it.each([
    [['send', '--too', 'http://127.0.0.1:1/', 'track'], /hookgate send: unknown option --too; did you mean --to\?/],
    [['--verison'], /hookgate: unknown option --verison; did you mean --version\?/],
    [
      ['send', 'trak', '--to', 'http://127.0.0.1:1/'],
      /hookgate send: unknown type "trak"; did you mean "track"\? Types: page, screen/,
    ],
    [['fixtures', 'idenitfy'], /unknown type "idenitfy"; did you mean "identify"\?/],
    [['serv', '--endpoint', 'http://127.0.0.1:1/'], /hookgate: unknown command "serv"; did you mean "serve"\?/],
    [['conformance', 'http://127.0.0.1:1/', '--secert', 's'], /unknown option --secert; did you mean --secret\?/],
    [['listen', '--forward', 'http://127.0.0.1:1/'], /unknown option --forward; did you mean --forward-to\?/],
  ])('%j → exit 2 with the nearest name', async (args, message) => {
    const r = await runCli(args);
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
  });

  it('names nothing when nothing is close', async () => {
    const r = await runCli(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command "frobnicate"\. Commands: serve, send/);
    expect(r.stderr).not.toMatch(/did you mean/);
  });

  it('every flag a --help names exists: each one is run, on the command it is named for', async () => {
    // The flags we tell people to type: each command's option lines, and every "hookgate <command> …"
    // example in any help. Each is run for real: parsing fails with "unknown option" if one does not exist.
    const commands = ['serve', 'send', 'fixtures', 'sign', 'replay', 'listen', 'conformance'];
    const named = new Map<string, Set<string>>(commands.map((c) => [c, new Set()]));
    for (const command of commands) {
      const help = await runCli([command, '--help']);
      expect(help.code).toBe(0);
      for (const m of help.stdout.matchAll(/^ {2}(?:-\w, )?--([a-z][a-z0-9-]*)/gm)) named.get(command)!.add(m[1]!);
      for (const m of help.stdout.matchAll(/hookgate (\w+)([^|)\n]*)/g)) {
        for (const f of m[2]!.matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)) named.get(m[1]!)?.add(f[1]!);
      }
    }
    // The flags serve's messages name in place of library options (`responsePolicy.clientErrors` → --on-4xx…).
    for (const [, hint] of HINTS) {
      const text = typeof hint === 'string' ? hint : hint('', '0');
      for (const f of text.matchAll(/--([a-z][a-z0-9-]*)/g)) named.get('serve')!.add(f[1]!);
    }
    expect(named.get('serve')!.size).toBeGreaterThan(20);
    for (const [command, flags] of named) {
      for (const flag of flags) {
        // A flag taking a value gets one; a boolean flag refuses one: either way not "unknown option".
        const r = await runCli([command, '--help', `--${flag}=x`]);
        const bare = r.code === 0 ? r : await runCli([command, '--help', `--${flag}`]);
        expect(`${command} --${flag}: ${bare.stderr}`).not.toMatch(/unknown option/);
        expect(bare.code, `${command} --${flag}`).toBe(0);
      }
    }
  }, 120_000);
});

describe('messages in CLI contexts name the flags', () => {
  it('library option names in emulator messages become the serve flags', () => {
    expect(
      flagHint(
        "no userId: the Webhooks message needs a userId; set anonymousCalls: 'anonymousId-as-userId' to deliver it",
      ),
    ).toBe(
      'no userId: the Webhooks message needs a userId; pass --anonymous-calls anonymousId-as-userId to deliver it',
    );
    expect(flagHint('Invalid setting sources[0].webhooks.endpoints[1].url: "x" is not a full URL')).toBe(
      'Invalid setting --endpoint #2: "x" is not a full URL',
    );
    expect(flagHint('see responsePolicy.clientErrors')).toBe('see --on-4xx');
  });

  it('serve on a non-loopback host without a token names --ui-token and --host, not library options', async () => {
    const r = await runCli(['serve', '--endpoint', `${receiver.url}/webhooks`, '--host', '0.0.0.0', '--port', '0'], {
      env: { HOOKGATE_UI_TOKEN: '' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--ui-token or HOOKGATE_UI_TOKEN/);
    expect(r.stderr).toMatch(/--host 127\.0\.0\.1/);
    expect(r.stderr).not.toMatch(/inspector: false|inspector: \{/);
  });

  it('a bad --endpoint is named by its flag and position', async () => {
    const r = await runCli(['serve', '--endpoint', `${receiver.url}/webhooks`, '--endpoint', 'http://bad host/'], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--endpoint #2/);
    expect(r.stderr).not.toMatch(/sources\[0\]/);
  });
});

describe('exit codes: 0 success, 1 the receiver or the check failed, 2 usage or unreachable', () => {
  it('the main --help states the table', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /Exit codes, for every command: 0 success,\s+1 the receiver or the check failed.*\s+or an unreachable target/,
    );
  });

  it('send: 0 on 2xx, 1 on a refusal, 2 when nothing answers, 2 on a usage error', async () => {
    const to = `${receiver.url}/webhooks`;
    expect((await runCli(['send', 'track', '--to', to, '--secret', SECRET])).code).toBe(0);
    expect((await runCli(['send', 'track', '--to', to, '--secret', 'not-it'])).code).toBe(1);
    const unreachable = await runCli(['send', 'track', '--to', await deadUrl()]);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stdout).toMatch(/no answer .*ECONNREFUSED/);
    expect((await runCli(['send', 'track'])).code).toBe(2);
  });

  it('replay: 2 when no serve answers, 1 when the serve refuses, 0 when replayed', async () => {
    const dead = await runCli(['replay', 'dlv_1', '--url', (await deadUrl()).replace(/\/hook$/, '')]);
    expect(dead.code).toBe(2);
    expect(dead.stderr).toMatch(/no serve answers at/);
    const serve = startServe(['--endpoint', `${receiver.url}/webhooks`, '--secret', SECRET]);
    try {
      const [, url] = await serve.waitFor(/intake listening on (http:\/\/127\.0\.0\.1:\d+)/);
      expect((await postCall(url!, '/v1/track', 'hookgate-dev', { userId: 'u1', event: 'Replayed' })).status).toBe(200);
      const [, id] = await serve.waitFor(/ (dlv_\d+) {2}track .* delivered/);
      const missing = await runCli(['replay', 'dlv_999', '--url', url!]);
      expect(missing.code).toBe(1);
      const ok = await runCli(['replay', id!, '--url', url!]);
      expect(ok.stdout).toMatch(new RegExp(`${id} replayed as dlv_\\d+`));
      expect(ok.code).toBe(0);
    } finally {
      serve.child.kill('SIGINT');
      expect(await serve.exited).toBe(0);
    }
  }, 60_000);

  it('fixtures and sign: 0, or 2 on a usage error', async () => {
    expect((await runCli(['fixtures', 'track'])).code).toBe(0);
    expect((await runCli(['fixtures', 'nope'])).code).toBe(2);
    expect((await runCli(['sign', '--secret', 's'], { input: '{}' })).code).toBe(0);
    expect((await runCli(['sign'], { env: { HOOKGATE_SECRET: '' } })).code).toBe(2);
  });

  it('conformance: 0 conforming, 1 failing, 2 unreachable', async () => {
    const url = `${receiver.url}/webhooks`;
    expect((await runCli(['conformance', url, '--secret', SECRET, '--json'])).code).toBe(0);
    const broken = await startHttpServer((_req, res) => res.writeHead(500).end());
    try {
      expect((await runCli(['conformance', `${broken.url}/hook`, '--secret', SECRET, '--json'])).code).toBe(1);
    } finally {
      await broken.close();
    }
    expect((await runCli(['conformance', await deadUrl(), '--secret', SECRET])).code).toBe(2);
  }, 60_000);

  it('serve and listen: 0 after Ctrl-C, 2 with one wording when the port is in use', async () => {
    const held = await holdPort();
    try {
      const serve = await runCli(['serve', '--endpoint', `${receiver.url}/webhooks`, '--port', String(held.port)]);
      const listen = await runCli(['listen', '--port', String(held.port)]);
      const wording = `port ${held.port} on 127.0.0.1 is in use; pick another with --port (0 picks a free one).`;
      expect(serve.stderr).toContain(`hookgate serve: ${wording}`);
      expect(listen.stderr).toContain(`hookgate listen: ${wording}`);
      expect(listen.stderr).not.toMatch(/EADDRINUSE/);
      expect([serve.code, listen.code]).toEqual([2, 2]);
    } finally {
      await held.close();
    }
  });
});

/** Starts `hookgate listen --port 0 ...args`; the banner (stderr) names its URL. */
function startListen(args: string[]) {
  const child = spawn(process.execPath, [CLI, 'listen', '--port', '0', ...args], {
    env: { ...process.env, NO_COLOR: '', HOOKGATE_SECRET: '' },
    stdio: 'pipe',
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const waitFor = async (read: () => string, pattern: RegExp) => {
    const until = Date.now() + 30_000;
    while (!pattern.test(read())) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${pattern} in:\n${stdout}\n${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return pattern.exec(read())!;
  };
  return {
    child,
    exited,
    out: () => stdout,
    err: () => stderr,
    waitOut: (p: RegExp) => waitFor(() => stdout, p),
    waitErr: (p: RegExp) => waitFor(() => stderr, p),
  };
}

describe('listen without --secret', () => {
  it('runs as a catch-all: records and answers every request, each "not verified"', async () => {
    const listen = startListen([]);
    try {
      const [, url] = await listen.waitErr(
        /hookgate listen on (http:\/\/127\.0\.0\.1:\d+)\/ \(any path\), no secret: nothing verified/,
      );
      const signed = await fetch(`${url}/hooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-signature': 'ab'.repeat(20) },
        body: '{"type":"track"}',
      });
      const plain = await fetch(`${url}/other`, { method: 'POST', body: 'hello' });
      expect([signed.status, plain.status]).toEqual([200, 200]);
      await listen.waitOut(/\/other .*not verified \(no --secret\)/);
      const lines = listen.out().trim().split('\n');
      expect(lines).toHaveLength(2);
      for (const line of lines) expect(line).toMatch(/not verified \(no --secret\) → answered 200$/);
      // The views (and the inspector page built on them) say the same: not verified, not refused.
      const view = (await (await fetch(`${url}/_hookgate/inbound`)).json()) as {
        requests: Array<{ verdict: { ok: boolean; reason?: string; message: string } }>;
      };
      expect(view.requests.map((r) => [r.verdict.ok, r.verdict.reason])).toEqual([
        [false, 'not_verified'],
        [false, 'not_verified'],
      ]);
      expect(view.requests[0]!.verdict.message).toMatch(/^not verified: listen runs without a secret/);
    } finally {
      listen.child.kill('SIGINT');
    }
    expect(await listen.exited).toBe(0);
    expect(listen.out()).toMatch(/SIGINT: 2 requests: 2 not verified \(no --secret\)/);
  }, 60_000);
});

describe('send --json', () => {
  it('nests a JSON answer as JSON, and keeps a text answer as text', async () => {
    const r = await runCli(['send', 'track', '--to', `${receiver.url}/webhooks`, '--secret', SECRET, '--json']);
    expect(r.code).toBe(0);
    const line = JSON.parse(r.stdout) as { status: number; body: unknown };
    expect(line.status).toBe(200);
    expect(typeof line.body).toBe('object');
    const texty = await startHttpServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks'),
    );
    try {
      const t = await runCli(['send', 'track', '--to', `${texty.url}/hook`, '--json']);
      expect((JSON.parse(t.stdout) as { body: unknown }).body).toBe('thanks');
    } finally {
      await texty.close();
    }
  });
});

/** Attempt lines of serve's text log: time, delivery id, type, endpoint, status, duration, outcome. */
const ATTEMPT_LINE =
  /^\d\d:\d\d:\d\d\.\d{3} {2}(dlv_\d+) {2}(\w+) +(\S+) {2} *(\S+) +\d+ ms {2}(delivered|will retry|gave up)/;

describe('serve with two endpoints', () => {
  it('carries the delivery id on every line, and the summary agrees with the lines per endpoint', async () => {
    const accepting = await startHttpServer((_req, res) => res.writeHead(200).end('{}'));
    const refusing = await startHttpServer((_req, res) => res.writeHead(400).end('{"error":"no"}'));
    const a = `${accepting.url}/a`;
    const b = `${refusing.url}/b`;
    try {
      const serve = startServe(['--endpoint', a, '--endpoint', b]);
      const [, url] = await serve.waitFor(/intake listening on (http:\/\/127\.0\.0\.1:\d+)/);
      for (const event of ['One', 'Two', 'Three']) {
        expect((await postCall(url!, '/v1/track', 'hookgate-dev', { userId: 'u1', event })).status).toBe(200);
      }
      const until = Date.now() + 30_000;
      const attemptLines = () =>
        serve
          .out()
          .split('\n')
          .map((l) => ATTEMPT_LINE.exec(l))
          .filter((m) => m !== null);
      while (attemptLines().length < 6 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      serve.child.kill('SIGINT');
      expect(await serve.exited).toBe(0);

      // The lines, counted per endpoint and outcome, each with its delivery id.
      const lines = attemptLines();
      expect(lines).toHaveLength(6);
      const ids = new Set(lines.map((m) => m[1]));
      expect([...ids].sort()).toEqual(['dlv_1', 'dlv_2', 'dlv_3']);
      const count = (endpoint: string, outcome: string) =>
        lines.filter((m) => m[3] === endpoint && m[5] === outcome).length;
      // The summary table: endpoint, attempts, delivered, failed, pending.
      const row = (endpoint: string) => {
        const m = new RegExp(`^${endpoint.replace(/[.:/]/g, '\\$&')} +(\\d+) +(\\d+) +(\\d+) +(\\d+)$`, 'm').exec(
          serve.out(),
        );
        if (!m) throw new Error(`no summary row for ${endpoint} in:\n${serve.out()}`);
        return m.slice(1).map(Number);
      };
      for (const endpoint of [a, b]) {
        const [attempts, delivered, failed, pending] = row(endpoint);
        expect(attempts).toBe(lines.filter((m) => m[3] === endpoint).length);
        expect(delivered).toBe(count(endpoint, 'delivered'));
        expect(failed).toBe(count(endpoint, 'gave up'));
        expect(pending).toBe(0);
      }
      expect(row(a)).toEqual([3, 3, 0, 0]);
      expect(row(b)).toEqual([3, 0, 3, 0]);
      expect(serve.out()).toMatch(/received 3: delivered 3, failed 0/);
    } finally {
      await accepting.close();
      await refusing.close();
    }
  }, 60_000);

  it('--json emits a live gave_up event when a delivery gives up', async () => {
    const refusing = await startHttpServer((_req, res) => res.writeHead(400).end());
    try {
      const serve = startServe(['--endpoint', `${refusing.url}/hook`, '--json']);
      const [, url] = await serve.waitFor(/"event":"listening","url":"(http:\/\/127\.0\.0\.1:\d+)"/);
      expect((await postCall(url!, '/v1/track', 'hookgate-dev', { userId: 'u1', event: 'Refused' })).status).toBe(200);
      // Before any signal: the event is live, not part of the closing report.
      await serve.waitFor(/"event":"gave_up"/);
      const events = serve
        .out()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const gaveUp = events.find((e) => e.event === 'gave_up')!;
      expect(gaveUp).toMatchObject({ recordId: 'dlv_1', type: 'track', attempts: 1 });
      expect(String(gaveUp.reason)).toMatch(/400/);
      serve.child.kill('SIGINT');
      expect(await serve.exited).toBe(0);
    } finally {
      await refusing.close();
    }
  }, 60_000);
});

describe('conformance with a wrong secret', () => {
  it('says so in one first line, then the details', async () => {
    const r = await runCli(['conformance', `${receiver.url}/webhooks`, '--secret', 'not-the-receivers-secret']);
    expect(r.code).toBe(1);
    const [first] = r.stdout.split('\n');
    expect(first).toMatch(/^every signed request got 401: check --secret/);
    expect(r.stdout).toMatch(/Failures:\n {2}MUST signed-page/);
    const json = await runCli([
      'conformance',
      `${receiver.url}/webhooks`,
      '--secret',
      'not-the-receivers-secret',
      '--json',
    ]);
    const report = JSON.parse(json.stdout.trim().split('\n').at(-1)!) as { event: string; wrongSecret: boolean };
    expect(report).toMatchObject({ event: 'report', wrongSecret: true });
  }, 60_000);

  it('does not say it when the receiver fails in other ways', async () => {
    const failing = await startHttpServer((_req, res) => res.writeHead(500).end());
    try {
      const r = await runCli(['conformance', `${failing.url}/hook`, '--secret', SECRET]);
      expect(r.code).toBe(1);
      expect(r.stdout).not.toMatch(/check --secret/);
    } finally {
      await failing.close();
    }
  }, 60_000);
});
