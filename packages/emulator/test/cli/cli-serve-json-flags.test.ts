// The CLI as a CLI, spawned from its build: --version, --json lines on serve and send, serve's flags
// for every option its hints name, the close report and summary after SIGINT, and lines in time order.
import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REFUSED_ORIGIN, readAll, startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';
import { postCall, requireBuiltCli, runCli, startServe } from '../helpers/cli-process.js';

// eslint-disable-next-line no-control-regex -- ESC [ starts an ANSI colour code, which is what is looked for
const ANSI = /\x1b\[/;
const PKG = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
const servers: RunningServer[] = [];
const start = async (listener: Parameters<typeof startHttpServer>[0]) => {
  const s = await startHttpServer(listener);
  servers.push(s);
  return s;
};

beforeAll(() => requireBuiltCli());
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

type Line = Record<string, unknown> & { event: string };
const jsonLines = (text: string): Line[] =>
  text
    .trimEnd()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);

describe('hookgate --version', { timeout: 120000 }, () => {
  it('prints the version of package.json, and --help lists it', async () => {
    const r = await runCli(['--version']);
    expect(r).toMatchObject({ code: 0, stdout: `${PKG.version}\n`, stderr: '' });
    expect(PKG.version).toMatch(/^\d+\.\d+\.\d+/);
    expect((await runCli(['--help'])).stdout).toMatch(/--version +print the version/);
  });
});

describe('hookgate serve --json', { timeout: 120000 }, () => {
  it('writes only JSON lines: listening, an attempt per attempt, filtered, stopping, closed, then a summary that agrees', async () => {
    const receiver = await start(async (req, res) => {
      await readAll(req);
      res.writeHead(req.url === '/down' ? 503 : 200).end();
    });
    const serve = startServe(['--json', '--endpoint', `${receiver.url}/hook`, '--drain-ms', '50']);
    await serve.waitFor(/"event":"listening"/);
    const listening = jsonLines(serve.out())[0]!;
    expect(listening).toMatchObject({
      event: 'listening',
      writeKey: 'hookgate-dev',
      endpoints: [`${receiver.url}/hook`],
      signed: false,
    });
    const url = listening.url as string;
    expect((await postCall(url, '/v1/track', 'hookgate-dev', { userId: 'u1', event: 'A' })).status).toBe(200);
    expect((await postCall(url, '/v1/track', 'hookgate-dev', { anonymousId: 'a1', event: 'B' })).status).toBe(200);
    await serve.waitFor(/"event":"filtered"/);
    await serve.waitFor(/"event":"attempt"/);
    serve.child.kill('SIGINT');
    expect(await serve.exited).toBe(0);
    const lines = jsonLines(serve.out()); // throws on any line that is not JSON: no banner
    expect(serve.out()).not.toMatch(ANSI);
    expect(lines.map((l) => l.event)).toEqual([
      'listening',
      ...lines.slice(1, -3).map((l) => l.event),
      'stopping',
      'closed',
      'summary',
    ]);
    const attempt = lines.find((l) => l.event === 'attempt')!;
    expect(attempt).toMatchObject({
      type: 'track',
      endpoint: `${receiver.url}/hook`,
      round: 1,
      status: 200,
      outcome: 'delivered',
      error: null,
    });
    expect(Date.parse(attempt.endedAt as string)).toBeGreaterThanOrEqual(Date.parse(attempt.startedAt as string));
    const filtered = lines.find((l) => l.event === 'filtered')!;
    // The hint names the flag that sets the option, not the library option.
    expect(filtered.reason).toMatch(/pass --anonymous-calls anonymousId-as-userId to deliver it/);
    expect(lines.at(-1)).toMatchObject({
      event: 'summary',
      received: 2,
      delivered: 1,
      failed: 0,
      pending: 0,
      filtered: 1,
      closedAtExit: 0,
    });
  });
});

describe('hookgate serve flags', { timeout: 120000 }, () => {
  it('refuses a bad value naming the flag and what it accepts (exit 2)', async () => {
    const base = ['serve', '--endpoint', 'http://127.0.0.1:1/h'];
    const cases: Array<[string[], RegExp]> = [
      [['--on-4xx', 'maybe'], /--on-4xx must be one of fail, retry \(got "maybe"\)/],
      [['--on-3xx', ''], /--on-3xx must be one of fail, retry/],
      [['--anonymous-calls', 'deliver'], /--anonymous-calls must be one of filter, anonymousId-as-userId/],
      [['--retry-jitter', 'some'], /--retry-jitter must be one of full, equal, none/],
      [['--retry-factor', '0.5'], /--retry-factor must be a number from 1 to 100/],
      [['--retry-window-ms', '1h'], /--retry-window-ms must be a whole number/],
      [['--retry-statuses', '500'], /--retry-statuses must be 4xx statuses/],
      [['--concurrency', '0'], /--concurrency must be a whole number from 1/],
      [['--include-ids=yes'], /option --include-ids does not take a value/],
      [['--user-agent', ''], /--user-agent must be a non-empty one-line value/],
    ];
    const runs = await Promise.all(cases.map(([flags]) => runCli([...base, ...flags])));
    runs.forEach((r, i) => {
      expect(r.code, cases[i]![0].join(' ')).toBe(2);
      expect(r.stderr).toMatch(cases[i]![1]);
    });
    // An emulator setting refused is shown with the flag to use.
    const ua = await runCli([...base, '--header', 'User-Agent: x']);
    expect(ua.code).toBe(2);
    expect(ua.stderr).toMatch(/set it with --user-agent instead/);
  });

  it('--on-4xx retry, --retry-* and --include-ids and --anonymous-calls change what is delivered, and the 4xx hint names --on-4xx', async () => {
    let n = 0;
    const bodies: Array<Record<string, unknown>> = [];
    const receiver = await start(async (req, res) => {
      bodies.push(JSON.parse((await readAll(req)).toString('utf8')) as Record<string, unknown>);
      res.writeHead(n++ === 0 ? 400 : 200).end();
    });
    const serve = startServe([
      '--json',
      '--endpoint',
      `${receiver.url}/hook`,
      '--on-4xx',
      'retry',
      '--retry-initial-delay-ms',
      '20',
      '--retry-jitter',
      'none',
      '--include-ids',
      '--anonymous-calls',
      'anonymousId-as-userId',
    ]);
    const [, url] = await serve.waitFor(/"url":"(http:\/\/127\.0\.0\.1:\d+)"/);
    expect(
      (await postCall(url!, '/v1/track', 'hookgate-dev', { anonymousId: 'anon-7', event: 'A', messageId: 'm-7' }))
        .status,
    ).toBe(200);
    await serve.waitFor(/"outcome":"delivered"/);
    serve.child.kill('SIGINT');
    expect(await serve.exited).toBe(0);
    const attempts = jsonLines(serve.out()).filter((l) => l.event === 'attempt');
    expect(attempts.map((a) => [a.status, a.outcome, a.round])).toEqual([
      [400, 'retry', 1],
      [200, 'delivered', 2],
    ]);
    expect(bodies[1]).toMatchObject({ userId: 'anon-7', anonymousId: 'anon-7', messageId: 'm-7' });

    // Without the flag, the same 400 fails for good, and the line says which flag would retry it.
    n = 0;
    const plain = startServe(['--endpoint', `${receiver.url}/hook`]);
    const [, url2] = await plain.waitFor(/intake listening on (http:\/\/127\.0\.0\.1:\d+)/);
    await postCall(url2!, '/v1/track', 'hookgate-dev', { userId: 'u', event: 'A' });
    await plain.waitFor(/gave up/);
    expect(plain.out()).toMatch(/ 400 .* gave up .*see --on-4xx\)/);
    plain.child.kill('SIGINT');
    expect(await plain.exited).toBe(0);
    expect(plain.out()).toMatch(/failed dlv_1 track: .*--on-4xx/);
    expect(plain.out()).not.toMatch(/responsePolicy/);
  });
});

describe('hookgate serve at Ctrl-C and over time', { timeout: 120000 }, () => {
  it('after SIGINT with a message pending: the close report, then a summary that counts it failed, as the report says', async () => {
    const down = await start((req, res) => {
      req.resume();
      res.writeHead(503).end();
    });
    // The first retry is a minute away: exactly one attempt is made before Ctrl-C, however slow the machine.
    const serve = startServe([
      '--endpoint',
      `${down.url}/hook`,
      '--drain-ms',
      '100',
      '--retry-initial-delay-ms',
      '60000',
      '--retry-jitter',
      'none',
    ]);
    const [, url] = await serve.waitFor(/intake listening on (http:\/\/127\.0\.0\.1:\d+)/);
    await postCall(url!, '/v1/identify', 'hookgate-dev', { userId: 'u1' });
    await serve.waitFor(/identify .* 503 .* will retry/);
    serve.child.kill('SIGINT');
    expect(await serve.exited).toBe(0);
    const out = serve.out();
    const report = out.indexOf('1 not delivered at exit, now recorded failed');
    const summary = out.indexOf('Summary');
    expect(report).toBeGreaterThan(0);
    expect(summary).toBeGreaterThan(report);
    expect(out.slice(summary)).toMatch(/received 1: delivered 0, failed 1 \(1 closed at exit\), pending 0, filtered 0/);
    expect(out.slice(summary)).not.toMatch(/pending [1-9]/);

    const json = startServe([
      '--json',
      '--endpoint',
      `${down.url}/hook`,
      '--drain-ms',
      '100',
      '--retry-initial-delay-ms',
      '60000',
      '--retry-jitter',
      'none',
    ]);
    const [, url2] = await json.waitFor(/"url":"(http:\/\/127\.0\.0\.1:\d+)"/);
    await postCall(url2!, '/v1/identify', 'hookgate-dev', { userId: 'u1' });
    await json.waitFor(/"outcome":"retry"/);
    json.child.kill('SIGINT');
    expect(await json.exited).toBe(0);
    const lines = jsonLines(json.out());
    const closed = lines.find((l) => l.event === 'closed')!;
    expect(closed.recordedFailed).toEqual([
      { id: 'dlv_1', type: 'identify', attempts: 1, reason: 'emulator closed before delivery' },
    ]);
    expect(lines.at(-1)).toMatchObject({ event: 'summary', failed: 1, pending: 0, closedAtExit: 1 });
  });

  it('prints attempt lines in the order of the times they show, even when a later attempt ends first', async () => {
    let first = true;
    const receiver = await start(async (req, res) => {
      await readAll(req);
      const delay = first ? 600 : 0;
      first = false;
      setTimeout(() => res.writeHead(200).end(), delay).unref();
    });
    const serve = startServe(['--endpoint', `${receiver.url}/hook`]);
    const [, url] = await serve.waitFor(/intake listening on (http:\/\/127\.0\.0\.1:\d+)/);
    await postCall(url!, '/v1/track', 'hookgate-dev', { userId: 'u1', event: 'Slow' });
    await new Promise((r) => setTimeout(r, 150));
    await postCall(url!, '/v1/track', 'hookgate-dev', { userId: 'u2', event: 'Fast' });
    await serve.waitFor(/(delivered[\s\S]*){2}/);
    serve.child.kill('SIGINT');
    expect(await serve.exited).toBe(0);
    const lines = serve
      .out()
      .split('\n')
      .filter((l) => /^\d\d:\d\d:\d\d\.\d{3} {2}dlv_\d+ {2}track/.test(l));
    expect(lines).toHaveLength(2);
    const ms = lines.map((l) => {
      const [h, m, s] = l.slice(0, 12).split(':');
      return (Number(h) * 60 + Number(m)) * 60_000 + Number(s) * 1000;
    });
    // The fast message's attempt started later but ended first: its line comes first, with the earlier time.
    expect(lines[0]).toMatch(/ 200 +\d+ ms {2}delivered$/);
    expect(Number(/(\d+) ms/.exec(lines[1]!)![1])).toBeGreaterThanOrEqual(500);
    expect(ms[1]!).toBeGreaterThanOrEqual(ms[0]!);
  });
});

describe('hookgate send --json', { timeout: 120000 }, () => {
  it('prints one JSON line with the answer, or with the error when nothing answers', async () => {
    const receiver = await start(async (req, res) => {
      await readAll(req);
      res.writeHead(202, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    const r = await runCli(['send', 'track', '--to', `${receiver.url}/hook`, '--json', '--secret', 'sss']);
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      url: `${receiver.url}/hook`,
      type: 'track',
      signed: true,
      ok: true,
      status: 202,
      body: { ok: true },
    });
    const failed = await runCli(['send', 'page', '--to', `${REFUSED_ORIGIN}/hook`, '--json']);
    expect(failed.code).toBe(2);
    expect(jsonLines(failed.stdout)).toEqual([
      expect.objectContaining({
        ok: false,
        status: null,
        timedOut: false,
        error: expect.stringMatching(/ECONNREFUSED/),
      }),
    ]);
  });
});
