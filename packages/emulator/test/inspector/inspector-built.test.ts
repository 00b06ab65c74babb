// The built path: `hookgate serve` from dist/ serves the page that scripts/build-inspector.mjs bundled
// into dist/inspector/ (not one built on the fly from sources), in ESM and in the CJS build.
import type * as EmulatorModule from '../../src/index.js';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCaptureReceiver, type CaptureReceiver } from '../helpers/capture-receiver.js';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const CLI = `${DIST}cli.js`;
const BUNDLE = `${DIST}inspector/`;

let receiver: CaptureReceiver;

beforeAll(async () => {
  for (const f of [CLI, `${BUNDLE}app.js`, `${BUNDLE}index.html`, `${BUNDLE}app.css`]) {
    if (!existsSync(f))
      throw new Error(
        `${f} is missing: build the emulator first (pnpm build runs tsup, then scripts/build-inspector.mjs).`,
      );
  }
  receiver = await startCaptureReceiver();
});

afterAll(async () => {
  await receiver?.close();
});

describe('the built inspector', () => {
  it('hookgate serve (dist/cli.js) serves dist/inspector/ byte for byte, and replays through hookgate replay', async () => {
    const child = spawn(
      process.execPath,
      [CLI, 'serve', '--port', '0', '--endpoint', `${receiver.url}/hook`, '--secret', 'built-secret-123'],
      {
        env: { ...process.env, NO_COLOR: '1', HOOKGATE_UI_TOKEN: '' },
        stdio: 'pipe',
      },
    );
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    try {
      const deadline = Date.now() + 15_000;
      while (!/intake listening on (http:\/\/127\.0\.0\.1:\d+)/.test(out) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      const url = /intake listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1] as string;
      expect(out).toContain(`inspector   ${url}/`);
      for (const [path, file] of [
        ['/', 'index.html'],
        ['/_hookgate/ui/app.js', 'app.js'],
        ['/_hookgate/ui/app.css', 'app.css'],
      ] as const) {
        const res = await fetch(`${url}${path}`);
        expect(res.status, path).toBe(200);
        const body = Buffer.from(await res.arrayBuffer());
        expect(body.equals(readFileSync(`${BUNDLE}${file}`)), path).toBe(true);
        expect(body.toString()).not.toContain('on the fly');
      }
      const track = await fetch(`${url}/v1/track`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Basic ${Buffer.from('hookgate-dev:').toString('base64')}`,
        },
        body: JSON.stringify({ userId: 'u-built', event: 'Built Path' }),
      });
      expect(track.status).toBe(200);
      while (receiver.received.length < 1) await new Promise((r) => setTimeout(r, 20));
      const replay = spawn(process.execPath, [CLI, 'replay', 'dlv_1', '--url', url], { stdio: 'pipe' });
      let replayOut = '';
      replay.stdout.on('data', (c) => (replayOut += c));
      expect(await new Promise((r) => replay.on('close', r))).toBe(0);
      expect(replayOut).toBe('dlv_1 replayed as dlv_2\n');
      while (receiver.received.length < 2) await new Promise((r) => setTimeout(r, 20));
      expect(receiver.received[1]?.text).toBe(receiver.received[0]?.text);
    } finally {
      child.kill('SIGINT');
      await new Promise((r) => child.on('close', r));
    }
  });

  it('the CJS build finds the same bundle', async () => {
    const require = createRequire(import.meta.url);
    const { createEmulator } = require(`${DIST}index.cjs`) as typeof EmulatorModule;
    const em = createEmulator({ sources: [{ writeKey: 'wk' }] });
    const server = await em.listen();
    try {
      const res = await fetch(`${server.url}/_hookgate/ui/app.js`);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(`${BUNDLE}app.js`))).toBe(true);
    } finally {
      await server.close();
      await em.close();
    }
  });

  it('hookgate serve refuses a non-loopback --host without a token', async () => {
    const child = spawn(
      process.execPath,
      [CLI, 'serve', '--host', '0.0.0.0', '--port', '0', '--endpoint', `${receiver.url}/hook`],
      {
        env: { ...process.env, HOOKGATE_UI_TOKEN: '' },
        stdio: 'pipe',
      },
    );
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    expect(await new Promise((r) => child.on('close', r))).toBe(2);
    expect(err).toMatch(/exposes the web inspector.*--ui-token/s);
  });
});
