// The `hookgate` bin, spawned from its build (packages/emulator/dist/cli.js) against real servers.
import { createReceiver, fixtures, messageIssues, sign, toNodeListener, type WebhookMessage } from '@hookgate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';
import { formatAttemptLine } from '../../src/cli/serve-summary.js';
import { wantsColor } from '../../src/cli/terminal-style.js';
import { requireBuiltCli, runCli, startServe } from '../helpers/cli-process.js';

const SECRET = 'cli-secret';
// eslint-disable-next-line no-control-regex -- ESC [ starts an ANSI colour code, which is what is looked for
const ANSI = /\x1b\[/;

let receiver: RunningServer;
let seen: Array<{ message: WebhookMessage; form: string }>;
let insecure: RunningServer;

beforeAll(async () => {
  requireBuiltCli();
  seen = [];
  const rx = createReceiver({
    secret: SECRET,
    onMessage: (message, ctx) => void seen.push({ message, form: ctx.verification.form }),
    logger: { warn: () => {} },
  });
  receiver = await startHttpServer(toNodeListener(rx));
  const open = createReceiver({ insecureSkipVerification: true, onMessage: () => {}, logger: { warn: () => {} } });
  insecure = await startHttpServer(toNodeListener(open));
});

afterAll(async () => {
  await receiver?.close();
  await insecure?.close();
});

const USAGE_ERRORS: Array<[string[], RegExp]> = [
  [['send', 'track', '--to', 'http://x/', '--bogus'], /hookgate send: unknown option --bogus\./],
  [['serve', '--port'], /hookgate serve: option --port needs a value\./],
  [['serve', '--endpoint', 'http://127.0.0.1:1/', '--port', 'eighty'], /--port must be a whole number from 0 to 65535/],
  [['serve'], /--endpoint is required/],
  [['fixtures', 'nope'], /unknown type "nope"\. Types: page, screen/],
  [['sign'], /--secret is required/],
  [['conformance', '--secret', 's'], /give the receiver URL/],
  [
    ['conformance', 'http://127.0.0.1:1/', '--secret', 's', '--timeout-ms', '-1'],
    /option --timeout-ms needs a value; to give one that starts with a dash, write --timeout-ms=<value>/,
  ],
  [
    ['conformance', 'http://127.0.0.1:1/', '--secret', 's', '--timeout-ms=-1'],
    /--timeout-ms must be a whole number from 1 to 600000 \(got "-1"\)/,
  ],
  [['fixtures', '--compact=yes'], /option --compact does not take a value/],
  [['send', 'trak', '--to', 'http://x/'], /unknown type "trak"/],
  [['send', 'track', '--to', 'http://x/', '--header', 'NoColon'], /--header must look like 'Name: value'/],
  [['frobnicate'], /unknown command "frobnicate"/],
];

describe('hookgate --help and usage errors', () => {
  it('prints the usage of every command with --help, exit code 0', async () => {
    const commands = ['serve', 'send', 'fixtures', 'sign', 'conformance'];
    const runs = await Promise.all(commands.map((c) => runCli([c, '--help'])));
    runs.forEach((r, i) => {
      expect(r.code, commands[i]).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: hookgate ${commands[i]}`));
      expect(r.stdout).toMatch(/-h, --help/);
    });
    const main = await runCli(['--help']);
    expect(main.code).toBe(0);
    for (const c of commands) expect(main.stdout).toContain(`  ${c}`);
  });

  it('exits 2 on a bad flag or argument, with a message naming it and pointing to --help', async () => {
    const runs = await Promise.all(USAGE_ERRORS.map(([args]) => runCli(args)));
    runs.forEach((r, i) => {
      const [args, message] = USAGE_ERRORS[i]!;
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stderr, args.join(' ')).toMatch(/--help/);
    });
  });
});

describe('hookgate fixtures and sign', () => {
  it('prints one fixture, or all, as the seed shapes', async () => {
    const one = await runCli(['fixtures', 'alias']);
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout)).toEqual(fixtures.alias);
    const all = JSON.parse((await runCli(['fixtures'])).stdout) as Record<string, unknown>;
    expect(Object.keys(all)).toEqual(['page', 'screen', 'identify', 'track', 'alias', 'group', 'delete']);
    for (const m of Object.values(all)) expect(messageIssues(m, { strictTimestamps: true })).toEqual([]);
    const compact = await runCli(['fixtures', 'track', '--compact']);
    expect(compact.stdout).toBe(`${JSON.stringify(fixtures.track)}\n`);
  });

  it('signs the exact bytes of stdin, with --secret or HOOKGATE_SECRET', async () => {
    const body = JSON.stringify(fixtures.track);
    const r = await runCli(['sign', '--secret', SECRET], { input: body });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${sign(body, SECRET)}\n`);
    expect(r.stderr).toBe('');
    const env = await runCli(['sign'], { input: `${body}\n`, env: { HOOKGATE_SECRET: SECRET } });
    expect(env.stdout).toBe(`${sign(`${body}\n`, SECRET)}\n`);
    expect(env.stderr).toMatch(/ends with a newline, which is signed too/);
  });
});

describe('hookgate send', () => {
  it('delivers the fixture signed, prints the answer and exits 0 on 2xx', async () => {
    seen.length = 0;
    const r = await runCli(['send', 'group', '--to', `${receiver.url}/webhooks`, '--secret', SECRET]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/→ POST http:\/\/127\.0\.0\.1:\d+\/webhooks {2}group, \d+ bytes, signed/);
    expect(r.stdout).toMatch(/← 200 in [\d.]+ ms/);
    expect(r.stdout).toContain('"code":"ok"');
    expect(r.stdout).not.toMatch(ANSI);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.form).toBe('raw');
    const { timestamp, ...rest } = seen[0]!.message;
    const { timestamp: _fixed, ...fixtureRest } = fixtures.group;
    expect(rest).toEqual(fixtureRest);
    expect(messageIssues(seen[0]!.message, { strictTimestamps: true })).toEqual([]);
    expect(Date.now() - Date.parse(timestamp)).toBeLessThan(60_000);
  });

  it('exits 1 when the receiver refuses (wrong secret), 2 when nothing answers (unreachable target)', async () => {
    const refused = await runCli(['send', 'track', '--to', `${receiver.url}/webhooks`, '--secret', 'not-it']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/← 401/);
    const server = await startHttpServer(() => {});
    const url = `${server.url}/hook`;
    await server.close();
    const unreachable = await runCli(['send', 'track', '--to', url, '--timeout-ms', '2000']);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stdout).toMatch(/unsigned \(no --secret\)/);
    expect(unreachable.stdout).toMatch(/← no answer after [\d.]+ ms: ECONNREFUSED/);
  });

  it('sends --data from stdin, and refuses data that is not a valid message of the type', async () => {
    seen.length = 0;
    const data = { version: 1, userId: 'u_data', timestamp: '2026-01-02T03:04:05.006Z', traits: { plan: 'pro' } };
    const r = await runCli(['send', 'identify', '--to', `${receiver.url}/webhooks`, '--data', '-'], {
      input: JSON.stringify(data),
      env: { HOOKGATE_SECRET: SECRET },
    });
    expect(r.code).toBe(0);
    expect(seen.map((s) => s.message)).toEqual([{ ...data, type: 'identify' }]);
    const bad = await runCli(['send', 'track', '--to', `${receiver.url}/webhooks`, '--data', '-'], {
      input: '{"type":"track","userId":"u"}',
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--data is not a valid track message:\n {2}\$\.version is required/);
    const other = await runCli(['send', 'track', '--to', `${receiver.url}/webhooks`, '--data', '-'], {
      input: JSON.stringify(fixtures.page),
    });
    expect(other.stderr).toMatch(/--data holds a "page" message, not track/);
  });
});

describe('hookgate conformance', () => {
  it('prints a table with every case and exits 0 against a conforming receiver', async () => {
    const r = await runCli(['conformance', `${receiver.url}/webhooks`, '--secret', SECRET]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^result +level +case +expected +status +time/m);
    expect(r.stdout).toMatch(/^PASS +MUST +signed-alias +2xx within 5000 ms +200 +\d+ ms$/m);
    expect(r.stdout).toMatch(/^PASS +SHOULD +raw-body-escaped-slash/m);
    expect(r.stdout).not.toMatch(/^FAIL/m);
    expect(r.stdout).not.toMatch(ANSI);
  });

  it('exits 1 on a MUST failure, and prints JSON with --json', async () => {
    const r = await runCli(['conformance', `${insecure.url}/hook`, '--json'], { env: { HOOKGATE_SECRET: SECRET } });
    expect(r.code).toBe(1);
    // One JSON object per line: a line per case as it ends, then the report with every case.
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; index?: number });
    expect(lines.slice(0, -1).map((l) => [l.event, l.index])).toEqual(
      Array.from({ length: 20 }, (_, i) => ['case', i + 1]),
    );
    const report = lines.at(-1) as unknown as {
      event: string;
      ok: boolean;
      cases: Array<{ id: string; passed: boolean; status: number }>;
    };
    expect(report.event).toBe('report');
    expect(report.cases).toHaveLength(20);
    expect(r.stderr).toBe(''); // no progress lines with --json
    expect(report.ok).toBe(false);
    expect(report.cases.find((c) => c.id === 'missing-signature')).toMatchObject({ passed: false, status: 200 });
    const table = await runCli(['conformance', `${insecure.url}/hook`, '--secret', SECRET]);
    expect(table.code).toBe(1);
    expect(table.stdout).toMatch(/^FAIL +MUST +wrong-secret/m);
    expect(table.stdout).toMatch(/4 MUST failures/);
  });
});

describe('hookgate serve', () => {
  it('runs intake + delivery with one log line per attempt, and a summary per endpoint on SIGINT', async () => {
    seen.length = 0;
    let failing = 0;
    const flaky = await startHttpServer((_req, res) => {
      failing++;
      res.writeHead(500).end();
    });
    try {
      const good = `${receiver.url}/webhooks`;
      const bad = `${flaky.url}/down`;
      const serve = startServe([
        '--endpoint',
        bad,
        '--endpoint',
        good,
        '--secret',
        SECRET,
        '--write-key',
        'wk_cli',
        '--header',
        'X-Env: test',
      ]);
      const [, url] = await serve.waitFor(/intake listening on (http:\/\/127\.0\.0\.1:\d+)/);
      expect(serve.out()).toMatch(/write key {3}wk_cli/);
      expect(serve.out()).not.toContain(SECRET);
      const res = await fetch(`${url}/v1/batch`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from('wk_cli:').toString('base64')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          batch: [
            { type: 'track', userId: 'u1', event: 'From CLI' },
            { type: 'identify', userId: 'u1' },
          ],
        }),
      });
      expect(res.status).toBe(200);
      const unknown = await fetch(`${url}/v1/track`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from('hookgate-dev:').toString('base64')}` },
        body: '{}',
      });
      expect(unknown.status).toBe(401);
      // One line per attempt: time, type, endpoint, status, duration, outcome.
      await serve.waitFor(/identify .* 200 .* delivered/);
      const lines = serve
        .out()
        .split('\n')
        .filter((l) => /^\d\d:\d\d:\d\d\.\d{3} {2}/.test(l));
      expect(lines.length).toBeGreaterThanOrEqual(4);
      expect(
        lines.some((l) =>
          /^\d\d:\d\d:\d\d\.\d{3} {2}dlv_\d+ {2}track {3}.*\/webhooks {2}200 +[\d]+ ms {2}delivered$/.test(l),
        ),
      ).toBe(true);
      expect(lines.some((l) => l.includes(bad) && / 500 /.test(l))).toBe(true);
      serve.child.kill('SIGINT');
      expect(await serve.exited).toBe(0);
      const out = serve.out();
      expect(out).toMatch(/SIGINT: no more calls taken/);
      expect(out).toMatch(new RegExp(`${good.replace(/[.:/]/g, '\\$&')} +\\d+ +2 +0 +0`));
      // The failing endpoint: both messages failed there and were not retried (the other accepted them).
      expect(out).toMatch(new RegExp(`${bad.replace(/[.:/]/g, '\\$&')} +[2-9] +0 +0 +0 +2$`, 'm'));
      expect(out).toMatch(/received 2: delivered 2, failed 0, pending 0, filtered 0/);
      expect(out).not.toMatch(ANSI);
      expect(seen.map((s) => s.message.type).sort()).toEqual(['identify', 'track']);
      expect(failing).toBeGreaterThanOrEqual(2);
    } finally {
      await flaky.close();
    }
  });

  it('reports messages still pending at exit as recorded failed, then a summary that agrees (SIGTERM)', async () => {
    const down = await startHttpServer((_req, res) => res.writeHead(503).end());
    try {
      const serve = startServe(['--endpoint', `${down.url}/hook`, '--drain-ms', '100']);
      const [, url] = await serve.waitFor(/intake listening on (http:\/\/127\.0\.0\.1:\d+)/);
      expect(serve.out()).toMatch(/signing {5}off/);
      const res = await fetch(`${url}/v1/page`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from('hookgate-dev:').toString('base64')}` },
        body: JSON.stringify({ userId: 'u1', properties: { path: '/' } }),
      });
      expect(res.status).toBe(200);
      await serve.waitFor(/page .* 503 .* will retry/);
      serve.child.kill('SIGTERM');
      expect(await serve.exited).toBe(0);
      expect(serve.out()).toMatch(/SIGTERM: no more calls taken; waiting up to 100 ms for 1 pending delivery/);
      // The close report first, then a summary that agrees with it: the record is failed, not pending.
      expect(serve.out()).toMatch(
        /1 not delivered at exit, now recorded failed \(emulator closed before delivery\):\n {2}dlv_1 {2}page {2}\d+ attempts?, last attempt 503 at http[^\n]*\n\nSummary\n/,
      );
      expect(serve.out()).toMatch(
        / +\d+ +0 +1 +0 +0\n\nreceived 1: delivered 0, failed 1 \(1 closed at exit\), pending 0, filtered 0\n$/,
      );
    } finally {
      await down.close();
    }
  });
});

describe('terminal output', () => {
  it('colours only a terminal without NO_COLOR, and the attempt line carries ANSI styles then', () => {
    const saved = process.env.NO_COLOR;
    try {
      delete process.env.NO_COLOR;
      expect(wantsColor({ isTTY: true })).toBe(true);
      expect(wantsColor({ isTTY: false })).toBe(false);
      process.env.NO_COLOR = '1';
      expect(wantsColor({ isTTY: true })).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.NO_COLOR;
      else process.env.NO_COLOR = saved;
    }
    const attempt = {
      recordId: 'dlv_1',
      endpoint: 'http://127.0.0.1:1/h',
      round: 1,
      at: new Date().toISOString(),
      requestHeaders: {},
      body: '{}',
      status: 200,
      durationMs: 3,
      outcome: 'delivered' as const,
    };
    const record = { type: 'track' } as never;
    expect(formatAttemptLine(attempt, record, true)).toMatch(ANSI);
    expect(formatAttemptLine(attempt, record, false)).not.toMatch(ANSI);
  });
});
