// `hookgate serve --endpoint A --endpoint B`, A answers 200 and B 500: B's failure is never left as a
// promise of a retry that will not come — in its line, its --json line, and the summary. The real bin
// (packages/emulator/dist/cli.js) in its own process against real HTTP servers on 127.0.0.1, in both
// orders, each made certain by holding one endpoint's answer until serve has printed the other's.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../../test/helpers/servers.js';
import { startGatedReceiver } from '../helpers/gated-receiver.js';
import { postCall, requireBuiltCli, startServe, type ServeProcess } from '../helpers/cli-process.js';

beforeAll(() => requireBuiltCli());

const esc = (text: string) => text.replace(/[.:/()]/g, '\\$&');

type Order = 'B fails after A accepts' | 'B fails before A accepts';

describe('serve: one endpoint accepted, the other is not retried and says so', { timeout: 60_000 }, () => {
  const servers: RunningServer[] = [];
  let serve: ServeProcess | undefined;
  afterEach(async () => {
    if (serve && serve.child.exitCode === null) {
      serve.child.kill('SIGKILL');
      await serve.exited;
    }
    serve = undefined;
    for (const s of servers.splice(0)) await s.close();
  });

  /** Runs serve with A then B, sends one track call, lets the two answers come in `order`, stops it. */
  async function run(order: Order, json: boolean) {
    const a = await startGatedReceiver(200);
    const b = await startGatedReceiver(500);
    servers.push(a.server, b.server);
    const urlA = `${a.server.url}/a`;
    const urlB = `${b.server.url}/b`;
    const s = (serve = startServe([
      '--endpoint',
      urlA,
      '--endpoint',
      urlB,
      '--retry-initial-delay-ms',
      '20',
      '--retry-jitter',
      'none',
      ...(json ? ['--json'] : []),
    ]));
    const [, intake] = await s.waitFor(json ? /"url":"(http:\/\/127\.0\.0\.1:\d+)"/ : /listening on (http:\/\/\S+)/);
    expect((await postCall(intake!, '/v1/track', 'hookgate-dev', { userId: 'u1', event: 'Signed Up' })).status).toBe(
      200,
    );
    const line = (url: string, words: string) =>
      json ? new RegExp(`"endpoint":"${esc(url)}".*"outcome":"${words}"`) : new RegExp(`${esc(url)} .*${words}`);
    if (order === 'B fails after A accepts') {
      a.open();
      await s.waitFor(line(urlA, 'delivered'));
      b.open();
      await s.waitFor(line(urlB, json ? 'not-retried' : 'not retried'));
    } else {
      b.open();
      await s.waitFor(line(urlB, json ? 'retry' : 'will retry'));
      a.open();
      await s.waitFor(json ? /"event":"cancelled"/ : /retry cancelled/);
    }
    // A retry round would start 20 ms after the first: give it ten times that to show up.
    await new Promise((r) => setTimeout(r, 200));
    s.child.kill('SIGINT');
    expect(await s.exited).toBe(0);
    return { urlA, urlB, out: s.out() };
  }

  const jsonLines = (out: string) =>
    out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it('B fails after A accepted: its line says "not retried: endpoint 1 accepted", the summary counts it so', async () => {
    const { urlA, urlB, out } = await run('B fails after A accepts', false);
    const lines = out.split('\n');
    const bLines = lines.filter((l) => l.includes(urlB) && /^\d\d:/.test(l));
    expect(bLines).toHaveLength(1);
    expect(bLines[0]).toMatch(/ 500 +\d+ ms {2}not retried: endpoint 1 accepted$/);
    expect(out).not.toMatch(/will retry|retry cancelled/);
    // Summary: endpoint, attempts, delivered, failed, pending, not retried.
    expect(out).toMatch(new RegExp(`^${esc(urlA)} +1 +1 +0 +0 +0$`, 'm'));
    expect(out).toMatch(new RegExp(`^${esc(urlB)} +1 +0 +0 +0 +1$`, 'm'));
    expect(out).toMatch(/^not retried: failed at that endpoint, not retried because another endpoint accepted/m);
    expect(out).toMatch(/received 1: delivered 1, failed 0/);
  });

  it('B fails before A accepted: its "will retry" is followed by a line saying the retry was cancelled', async () => {
    const { urlA, urlB, out } = await run('B fails before A accepts', false);
    const lines = out.split('\n').filter((l) => /^\d\d:/.test(l));
    const willRetry = lines.findIndex((l) => l.includes(urlB) && / 500 .* will retry$/.test(l));
    const delivered = lines.findIndex((l) => l.includes(urlA) && / 200 .* delivered$/.test(l));
    const cancelled = lines.findIndex((l) => l.includes(urlB) && l.includes('retry cancelled'));
    expect(willRetry).toBeGreaterThanOrEqual(0);
    expect(delivered).toBeGreaterThan(willRetry);
    expect(cancelled).toBeGreaterThan(delivered);
    expect(lines[cancelled]).toMatch(
      new RegExp(`retry cancelled: endpoint 1 \\(${esc(urlA)}\\) answered 200: a message is not retried`),
    );
    expect(lines.filter((l) => l.includes(urlB))).toHaveLength(2); // no retry went out
    expect(out).toMatch(new RegExp(`^${esc(urlB)} +1 +0 +0 +0 +1$`, 'm'));
  });

  it('--json: a not-retried attempt and a cancelled retry carry notRetriedBecause; the summary counts notRetried', async () => {
    const after = await run('B fails after A accepts', true);
    const afterLines = jsonLines(after.out);
    const atB = afterLines.filter((l) => l.event === 'attempt' && l.endpoint === after.urlB);
    expect(atB).toEqual([
      expect.objectContaining({ status: 500, outcome: 'not-retried', notRetriedBecause: 'endpoint 1 accepted' }),
    ]);
    expect(afterLines.find((l) => l.event === 'attempt' && l.endpoint === after.urlA)).toMatchObject({
      outcome: 'delivered',
      notRetriedBecause: null,
    });
    expect(afterLines.some((l) => l.event === 'cancelled')).toBe(false);
    expect(afterLines.at(-1)).toMatchObject({
      event: 'summary',
      delivered: 1,
      failed: 0,
      endpoints: [
        { endpoint: after.urlA, attempts: 1, delivered: 1, failed: 0, pending: 0, notRetried: 0 },
        { endpoint: after.urlB, attempts: 1, delivered: 0, failed: 0, pending: 0, notRetried: 1 },
      ],
    });

    await afterEachRun();
    const before = await run('B fails before A accepts', true);
    const beforeLines = jsonLines(before.out);
    expect(beforeLines.filter((l) => l.event === 'attempt' && l.endpoint === before.urlB)).toEqual([
      expect.objectContaining({ status: 500, outcome: 'retry', notRetriedBecause: null }),
    ]);
    expect(beforeLines.filter((l) => l.event === 'cancelled')).toEqual([
      expect.objectContaining({
        recordId: 'dlv_1',
        type: 'track',
        endpoint: before.urlB,
        round: 2,
        notRetriedBecause: 'endpoint 1 accepted',
        reason: expect.stringMatching(/^endpoint 1 \(http:\/\/127\.0\.0\.1:\d+\/a\) answered 200: /) as unknown,
      }),
    ]);
    expect((beforeLines.at(-1)!.endpoints as unknown[])[1]).toMatchObject({ failed: 0, notRetried: 1 });
  });

  /** Between two runs in one test: the first run's receivers closed. */
  async function afterEachRun() {
    for (const s of servers.splice(0)) await s.close();
  }
});
