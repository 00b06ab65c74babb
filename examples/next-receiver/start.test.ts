// The Next.js example on the real framework server: a production build (`next build`) and
// `next start`, started by the one command users run, and signed deliveries over real HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allFixtures, sign } from '@hookgate/core';
import { runConformance } from '@hookgate/emulator';

const root = fileURLToPath(new URL('../../', import.meta.url));
const SECRET = 'next-example-secret';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let child: ChildProcess;
let output = '';
let url = '';

async function waitFor(pattern: RegExp, ms: number): Promise<RegExpExecArray> {
  const until = Date.now() + ms;
  for (;;) {
    const m = pattern.exec(output);
    if (m) return m;
    if (Date.now() > until) throw new Error(`no ${pattern} within ${ms} ms:\n${output}`);
    if (child.exitCode !== null) throw new Error(`the example exited (${child.exitCode}):\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function post(body: string, signature: string | undefined, method = 'POST'): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature !== undefined) headers['x-signature'] = signature;
  return fetch(url, { method, body, headers });
}

const handledLines = () => output.split('\n').filter((l) => l.startsWith('webhook '));

beforeAll(async () => {
  const port = await freePort();
  child = spawn(process.execPath, ['--import', 'tsx', 'examples/next-receiver/start.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), WEBHOOK_SECRET: SECRET },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.setEncoding('utf8').on('data', (t: string) => (output += t));
  child.stderr!.setEncoding('utf8').on('data', (t: string) => (output += t));
  url = (await waitFor(/URL:\s+(http:\/\/\S+\/webhooks)/, 170_000))[1]!;
}, 180_000);

afterAll(async () => {
  if (child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
});

describe('examples/next-receiver: `pnpm example:next` (next build, next start)', () => {
  it('handles every message type once, in order, and answers with the receiver JSON', async () => {
    const fixtures = allFixtures();
    for (const m of fixtures) {
      const body = JSON.stringify(m);
      const res = await post(body, sign(body, SECRET));
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ ok: true, code: 'ok' });
    }
    await waitFor(new RegExp(`(webhook [^\\n]*\\n[^]*){${fixtures.length}}`), 5000);
    expect(handledLines().map((l) => l.split(' ')[1])).toEqual(fixtures.map((m) => m.type));
  });

  it('refuses forged, unsigned and re-encoded deliveries, and runs a retried one once', async () => {
    const before = handledLines().length;
    const body = JSON.stringify({ ...allFixtures()[0], userId: 'next-user-é' });
    expect((await post(body, sign(body, 'not-the-secret'))).status).toBe(401);
    expect((await post(body, undefined)).status).toBe(401);
    // Same parsed value, other bytes: only the bytes that were signed are authentic.
    expect((await post(body.replace('é', '\\u00e9'), sign(body, SECRET))).status).toBe(401);
    expect((await post(body, sign(body, SECRET))).status).toBe(200);
    const retry = await post(body, sign(body, SECRET));
    expect(retry.status).toBe(200);
    expect(await retry.json()).toMatchObject({ code: 'duplicate' });
    await new Promise((r) => setTimeout(r, 300));
    expect(handledLines().length).toBe(before + 1);
  });

  it('answers the status table: 405 on GET and DELETE, 415, 400 and 413', async () => {
    expect((await fetch(url)).status).toBe(405);
    expect((await fetch(url, { method: 'DELETE' })).status).toBe(405);
    const text = 'hello';
    expect(
      (
        await fetch(url, {
          method: 'POST',
          body: text,
          headers: { 'content-type': 'text/plain', 'x-signature': sign(text, SECRET) },
        })
      ).status,
    ).toBe(415);
    expect((await post('{"not json', sign('{"not json', SECRET))).status).toBe(400);
    const big = JSON.stringify({ ...allFixtures()[0], properties: { pad: 'x'.repeat(2 * 1024 * 1024) } });
    expect((await post(big, sign(big, SECRET))).status).toBe(413);
  });

  it('passes every MUST and SHOULD case of the conformance suite', async () => {
    const report = await runConformance({ url, secret: SECRET });
    expect(report.cases.filter((c) => !c.passed).map((c) => `${c.level} ${c.id}: ${c.detail}`)).toEqual([]);
    expect(report.cases).toHaveLength(20);
  });
});
