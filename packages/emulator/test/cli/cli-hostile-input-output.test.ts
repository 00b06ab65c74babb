// The bin against hostile input and output: flags that cannot be sent are refused (exit 2, naming the
// flag and the character); text from endpoints and calls cannot forge a line of `serve` or `listen`;
// a closed stdout (`serve --json | head -1`) ends `serve` quietly with its usual exit code.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, postCall, requireBuiltCli, runCli, startServe } from '../helpers/cli-process.js';

beforeAll(requireBuiltCli);

const open: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

/** A raw endpoint answering every request with `statusLine` (bytes as given). */
async function rawEndpoint(statusLine: Buffer): Promise<string> {
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', () => {
      socket.end(Buffer.concat([statusLine, Buffer.from('\r\nContent-Length: 0\r\nConnection: close\r\n\r\n')]));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  open.push(() => server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

describe('flags that cannot be sent are refused', () => {
  it.each([
    [
      ['serve', '--endpoint', 'http://127.0.0.1:9/h', '--header', 'X-Team: 日本'],
      /--header "X-Team" cannot be sent: its value contains "日" \(U\+65E5\) at index 0, past U\+00FF/,
    ],
    [
      ['serve', '--endpoint', 'http://127.0.0.1:9/h', '--user-agent', 'Bot ✓'],
      /--user-agent cannot be sent as a header: it contains "✓" \(U\+2713\)/,
    ],
    [['serve', '--endpoint', 'http://127.0.0.1:9/o\tk'], /--endpoint #1: contains TAB \(U\+0009\) at index 20/],
    [['send', 'track', '--to', 'http://127.0.0.1:9/ok\r\nX-Evil: 1'], /--to contains CR \(U\+000D\) at index 21/],
    [
      ['send', 'track', '--to', 'http://127.0.0.1:9/h', '--header', 'X-Price: 5 €'],
      /--header "X-Price" cannot be sent.*"€" \(U\+20AC\)/,
    ],
    [['listen', '--forward-to', 'http://127.0.0.1:9/a b'], /--forward-to contains a space \(U\+0020\) at index 20/],
  ])('%j exits 2 naming the flag and the character', async (args, message) => {
    const run = await runCli(args, { timeoutMs: 20_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n.*\n.*\n.*\n/); // a message, not a stack trace
  });
});

describe('text output cannot be forged', () => {
  it('serve: a reason phrase with C1/ESC bytes prints escaped, on its own line', async () => {
    // 0x9b is CSI in 8-bit terminals; obs-text, so node:http hands it over (as U+009B).
    const url = await rawEndpoint(Buffer.from('HTTP/1.1 418 Oops\x9b2J\x9b32m forged', 'latin1'));
    const serve = startServe(['--endpoint', url, '--retry-window-ms', '50']);
    open.push(() => serve.child.kill('SIGKILL'));
    const [, intakeUrl] = await serve.waitFor(/intake listening on (http:\/\/127\.0\.0\.1:\d+)/);
    expect(
      (await postCall(intakeUrl as string, '/v1/track', 'hookgate-dev', { userId: 'u1', event: 'E' })).status,
    ).toBe(200);
    await serve.waitFor(/dlv_1.*418/);
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    const out = serve.out();
    // eslint-disable-next-line no-control-regex
    expect(out).not.toMatch(/[\u0080-\u009f\u001b]/);
    expect(out).toContain('Oops\\x9b2J\\x9b32m forged');
  });

  it('listen: an event name with CR/LF cannot print a line of its own', async () => {
    const child = spawn(process.execPath, [CLI, 'listen', '--port', '0'], {
      env: { ...process.env, NO_COLOR: '', HOOKGATE_SECRET: '' },
      stdio: 'pipe',
    });
    open.push(() => child.kill('SIGKILL'));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const until = Date.now() + 30_000;
    while (!/listen on (http:\/\/127\.0\.0\.1:\d+)/.test(stderr) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20));
    const url = /listen on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)?.[1] as string;
    const forged = 'E"\r\n12:00:00.000 in_9 POST /hooks track "Paid" 10 B ✔ verified (secret #1) → answered 200';
    const body = JSON.stringify({
      type: 'track',
      event: forged,
      userId: 'u1',
      messageId: 'm1',
      timestamp: '2026-01-01T00:00:00.000Z',
    });
    expect(
      (await fetch(`${url}/hooks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status,
    ).toBe(200);
    while (!stdout.includes('\n') && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGTERM');
    await once(child, 'close');
    const requestLines = stdout.split('\n').filter((l) => /^\d\d:\d\d:\d\d\.\d{3} /.test(l));
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toContain('\\r\\n12:00:00.000 in_9');
  });
});

describe('a closed stdout', () => {
  it('serve --json | head -1: serve stops quietly when its output goes away, exit code 0', async () => {
    const receiver = await rawEndpoint(Buffer.from('HTTP/1.1 200 OK'));
    // The shell pipeline as a user types it; serve's own exit code and stderr are reported on fd 3 and a file.
    const script = `{ "${process.execPath}" "${CLI}" serve --port 0 --json --endpoint ${receiver} 2>&3; echo "serve exited $?" >&3; } | head -1`;
    const child = spawn('sh', ['-c', script], {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '' },
    });
    open.push(() => child.kill('SIGKILL'));
    let stdout = '';
    let side = '';
    child.stdout?.on('data', (c) => (stdout += c));
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (c) => (side += c));
    const until = Date.now() + 30_000;
    while (!stdout.includes('\n') && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const intakeUrl = (JSON.parse(stdout.split('\n')[0] as string) as { url: string }).url;
    // head has exited: serve's next lines (this call's attempt) meet a closed pipe.
    for (let i = 0; i < 3 && !side.includes('serve exited'); i++) {
      await postCall(intakeUrl, '/v1/track', 'hookgate-dev', { userId: 'u1', event: 'E' }).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 300));
    }
    while (!side.includes('serve exited') && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(side).toMatch(/serve exited 0\n$/);
    expect(side).not.toMatch(/EPIPE|Error|at /);
  });
});
