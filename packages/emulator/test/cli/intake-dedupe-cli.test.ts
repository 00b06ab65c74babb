// `hookgate serve`, spawned from its build, shows a resent messageId as a duplicate: a `filtered`
// line with `duplicateOf` under --json, a `duplicate` line in the live log; the endpoint gets it once.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readAll, startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';
import { postCall, requireBuiltCli, runCli, startServe } from '../helpers/cli-process.js';

const servers: RunningServer[] = [];
beforeAll(() => requireBuiltCli());
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function countingReceiver(): Promise<{ server: RunningServer; bodies: string[] }> {
  const bodies: string[] = [];
  const server = await startHttpServer(async (req, res) => {
    bodies.push((await readAll(req)).toString('utf8'));
    res.writeHead(200).end();
  });
  servers.push(server);
  return { server, bodies };
}

const batch = { batch: [{ type: 'track', userId: 'u1', event: 'Resent', messageId: 'm-resent-1' }] };

describe('hookgate serve and a resent messageId', { timeout: 120_000 }, () => {
  it('--json: the repeat is a filtered line with duplicateOf, and the endpoint gets the call once', async () => {
    const { server, bodies } = await countingReceiver();
    const serve = startServe(['--json', '--endpoint', `${server.url}/hook`, '--drain-ms', '50']);
    try {
      await serve.waitFor(/"event":"listening"/);
      const listening = JSON.parse(serve.out().split('\n')[0]!) as { url: string };
      expect((await postCall(listening.url, '/v1/batch', 'hookgate-dev', batch)).status).toBe(200);
      await serve.waitFor(/"event":"attempt"/);
      expect((await postCall(listening.url, '/v1/batch', 'hookgate-dev', batch)).status).toBe(200);
      await serve.waitFor(/"event":"filtered"/);
      const lines = serve
        .out()
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const attempt = lines.find((l) => l.event === 'attempt')!;
      const filtered = lines.find((l) => l.event === 'filtered')!;
      expect(filtered).toMatchObject({ type: 'track', duplicateOf: attempt.recordId });
      expect(filtered.reason).toMatch(/^duplicate: messageId "m-resent-1" was already accepted as dlv_\d+/);
      expect(bodies).toHaveLength(1);
    } finally {
      serve.child.kill('SIGINT');
      await serve.exited;
    }
  });

  it('the live log prints the repeat as a duplicate', async () => {
    const { server } = await countingReceiver();
    const serve = startServe(['--endpoint', `${server.url}/hook`, '--drain-ms', '50']);
    try {
      const [, url] = await serve.waitFor(/listening on (http:\/\/\S+)/);
      await postCall(url!, '/v1/batch', 'hookgate-dev', batch);
      await serve.waitFor(/delivered/);
      await postCall(url!, '/v1/batch', 'hookgate-dev', batch);
      await serve.waitFor(/ duplicate {2}duplicate: messageId "m-resent-1"/);
    } finally {
      serve.child.kill('SIGINT');
      await serve.exited;
    }
  });

  it('--dedupe-window-ms 0 delivers every repeat; a bad value is a usage error naming the flag; --help lists it', async () => {
    const { server, bodies } = await countingReceiver();
    const serve = startServe([
      '--json',
      '--endpoint',
      `${server.url}/hook`,
      '--drain-ms',
      '50',
      '--dedupe-window-ms',
      '0',
    ]);
    try {
      await serve.waitFor(/"event":"listening"/);
      const listening = JSON.parse(serve.out().split('\n')[0]!) as { url: string };
      await postCall(listening.url, '/v1/batch', 'hookgate-dev', batch);
      await postCall(listening.url, '/v1/batch', 'hookgate-dev', batch);
      const until = Date.now() + 10_000;
      while (bodies.length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      expect(bodies).toHaveLength(2);
      expect(serve.out()).not.toContain('"event":"filtered"');
    } finally {
      serve.child.kill('SIGINT');
      await serve.exited;
    }
    const bad = await runCli(['serve', '--endpoint', `${server.url}/hook`, '--dedupe-window-ms', 'a day']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--dedupe-window-ms must be a whole number/);
    expect((await runCli(['serve', '--help'])).stdout).toMatch(
      /--dedupe-window-ms N +a messageId sent again within this time/,
    );
  });
});
