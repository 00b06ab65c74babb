// receiver.fetch handed directly to Bun.serve and Deno.serve (the installed binaries), driven by real
// requests signed here with node:crypto.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRuntime } from '../../../test/runtimes/ensure-runtime.js';
import { fixtures } from '../src/index.js';
import { bundleCore, type CoreBundle } from './helpers/bundle.js';
import { SECRET, hmac, send, sendChunks } from './helpers/receiver-server.js';

let bundle: CoreBundle;
beforeAll(() => {
  bundle = bundleCore();
});
afterAll(() => bundle?.remove());

const serveLine = {
  bun: `const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: receiver.fetch }); console.log('listening ' + server.port);`,
  deno: `Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }) => console.log('listening ' + port) }, receiver.fetch);`,
};

// The pinned runtimes, fetched from npm on first use (test/runtimes/ensure-runtime.ts); the real binaries,
// not the node_modules/.bin shims: a shim may be a wrapper process, and killing it would leave the server running.
const packageDir = (name: 'bun' | 'deno') => join(dirname(ensureRuntime(name)), '..', name);
const runtimes = [
  { name: 'bun', bin: join(packageDir('bun'), 'bin/bun.exe'), args: (f: string) => [f] },
  {
    name: 'deno',
    bin: join(packageDir('deno'), 'deno'),
    args: (f: string) => ['run', '--allow-net', '--allow-read', '--allow-env', f],
  },
] as const;

describe.each(runtimes)('$name serve({ fetch: receiver.fetch })', ({ name, bin, args }) => {
  let child: ChildProcess;
  let url = '';
  const handled: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    expect(existsSync(bin), `${bin} is installed`).toBe(true);
    const script = join(bundle.dir, `${name}-server.mjs`);
    writeFileSync(
      script,
      `import * as core from ${JSON.stringify(bundle.file)};
const receiver = core.createReceiver({
  secret: ${JSON.stringify(SECRET)},
  maxBodyBytes: 16 * 1024,
  on: { track: (m, ctx) => console.log('handled ' + JSON.stringify({ event: m.event, form: ctx.verification.form })) },
});
${serveLine[name]}
`,
    );
    child = spawn(bin, args(script), {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
    });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += String(d)));
    url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} did not start: ${stderr}`)), 20_000);
      child.once('exit', (code) => reject(new Error(`${name} exited ${code}: ${stderr}`)));
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const m = /^listening (\d+)$/.exec(line);
        if (m) {
          clearTimeout(timer);
          resolve(`http://127.0.0.1:${m[1]}`);
        } else if (line.startsWith('handled ')) handled.push(JSON.parse(line.slice(8)));
      });
    });
  });
  afterAll(async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill();
    await exited;
  });

  it('answers a signed delivery 200 and runs the typed handler over the raw bytes', async () => {
    const a = await send(url, { ...fixtures.track, event: `On ${name}` });
    expect(a.status).toBe(200);
    expect(a.json).toEqual({ ok: true, code: 'ok', message: 'Handled.' });
    await expect.poll(() => handled).toContainEqual({ event: `On ${name}`, form: 'raw' });
  });

  it('answers the error rows of the status table', async () => {
    expect((await send(url, fixtures.track, { secret: 'wrong' })).status).toBe(401);
    expect((await send(url, fixtures.track, { secret: null })).status).toBe(401);
    expect((await send(url, '{"type":')).status).toBe(400);
    expect((await send(url, fixtures.track, { contentType: 'text/plain' })).status).toBe(415);
    expect((await send(url, undefined, { method: 'GET' })).status).toBe(405);
    expect((await send(url, { ...fixtures.track, pad: 'x'.repeat(20 * 1024) })).status).toBe(413);
  });

  it('a chunked body over the limit → 413', async () => {
    const big = JSON.stringify({ ...fixtures.track, pad: 'x'.repeat(64 * 1024) });
    const chunks = Array.from({ length: 4 }, (_, i) => big.slice((i * big.length) / 4, ((i + 1) * big.length) / 4));
    expect(
      (await sendChunks(url, chunks, { 'content-type': 'application/json', 'x-signature': hmac(big) })).status,
    ).toBe(413);
  });
});
