// The `hookgate` CLI at its edges, each in its own process (spawned from the sources) against real
// HTTP servers on 127.0.0.1: `help <command>`, a bad port named before a missing flag, replay's
// reasons in flags, an empty --secret, and an HTML error page shortened.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';
import { SEND_HELP } from '../../src/cli/command-send.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `hookgate ...args` from the sources, to its end. */
function hookgate(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'packages/emulator/src/cli.ts', ...args], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1', DEBUG: '', HOOKGATE_SECRET: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let html: RunningServer;
const seen: Array<string | undefined> = [];
const PAGE = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>body{font:14px sans-serif}</style></head><body><h1>502 Bad Gateway</h1><p>The upstream server did not answer.</p>${'<div class="pad">&nbsp;</div>'.repeat(150)}<hr><center>nginx</center></body></html>`;

beforeAll(async () => {
  html = await startHttpServer((req, res) => {
    seen.push(req.headers['x-signature'] as string | undefined);
    req.resume();
    req.on('end', () => res.writeHead(502, { 'content-type': 'text/html' }).end(PAGE));
  });
});
afterAll(() => html.close());

describe('hookgate CLI edges', () => {
  it('hookgate help send prints send’s help', async () => {
    const r = await hookgate(['help', 'send']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(SEND_HELP);
  }, 30_000);

  it('serve --port abc names the bad port, not the missing --endpoint', async () => {
    const r = await hookgate(['serve', '--port', 'abc']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^hookgate serve: --port must be a whole number from 0 to 65535 \(got "abc"\)/);
  }, 30_000);

  it('send --secret "" is a usage error naming the empty secret; nothing is sent unsigned', async () => {
    seen.length = 0;
    const r = await hookgate(['send', 'track', '--to', `${html.url}/hook`, '--secret', '']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--secret is empty');
    expect(seen).toEqual([]);
  }, 30_000);

  it('send against an HTML error page prints a short excerpt of its text, not the page', async () => {
    const r = await hookgate(['send', 'track', '--to', `${html.url}/hook`, '--secret', 's3cret']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('← 502');
    expect(r.stdout).toContain('502 Bad Gateway 502 Bad Gateway The upstream server did not answer.');
    expect(r.stdout).toContain('(an HTML page; --json prints the body)');
    expect(r.stdout).not.toContain('<div');
    expect(r.stdout.length).toBeLessThan(700);
    const json = await hookgate(['send', 'track', '--to', `${html.url}/hook`, '--secret', 's3cret', '--json']);
    expect((JSON.parse(json.stdout) as { body: string }).body).toContain('<title>502 Bad Gateway</title>');
  }, 30_000);

  it('replay of an evicted delivery names the serve flag (--max-records), not the library option', async () => {
    const receiver = await startHttpServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200).end('ok'));
    });
    const serve = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'packages/emulator/src/cli.ts',
        'serve',
        '--port',
        '0',
        '--endpoint',
        `${receiver.url}/hook`,
        '--max-records',
        '1',
      ],
      {
        cwd: root,
        env: { ...process.env, NO_COLOR: '1', HOOKGATE_SECRET: 's3cret' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    serve.stdout.on('data', (c) => (out += c));
    serve.stderr.on('data', (c) => (out += c));
    const exited = new Promise((resolve) => serve.on('close', resolve));
    try {
      const deadline = Date.now() + 20_000;
      while (!/intake listening on (http:\/\/127\.0\.0\.1:\d+)/.test(out)) {
        if (Date.now() > deadline) throw new Error(`serve did not start: ${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const url = /intake listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!;
      const auth = `Basic ${Buffer.from('hookgate-dev:').toString('base64')}`;
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${url}/v1/track`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: auth },
          body: JSON.stringify({ userId: 'u1', event: `E${i}` }),
        });
        expect(res.status).toBe(200);
      }
      while (!/dlv_3 .*delivered/.test(out)) {
        if (Date.now() > deadline) throw new Error(`not delivered: ${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const r = await hookgate(['replay', 'dlv_1', '--url', url]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('evicted');
      expect(r.stderr).toContain('--max-records');
      expect(r.stderr).not.toContain('maxRecords');
    } finally {
      serve.kill('SIGINT');
      await exited;
      await receiver.close();
    }
  }, 60_000);
});
