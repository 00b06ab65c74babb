// `hookgate conformance` against bad targets, spawned from its build: a dead port, a receiver that
// answers after 6 s, one that is slow only to refuse, and a good one; progress per case.
import { spawn } from 'node:child_process';
import { createReceiver, toNodeListener } from '@hookgate/core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REFUSED_ORIGIN, readAll, startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';
import { CLI, requireBuiltCli, runCli } from '../helpers/cli-process.js';

const SECRET = 'conformance-secret';
const servers: RunningServer[] = [];
beforeAll(() => requireBuiltCli());
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('hookgate conformance on a bad target', { timeout: 120000 }, () => {
  it('stops at once on a dead port: one clear error, exit 2, no case run', async () => {
    const r = await runCli(['conformance', `${REFUSED_ORIGIN}/hook`, '--secret', SECRET]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(
        /^hookgate conformance: cannot reach the receiver at http:\/\/127\.0\.0\.1:\d+\/hook: ECONNREFUSED.*running.*no case was run\.$/,
      ),
    ]);
    expect(r.stderr).not.toMatch(/forged|MUST|FAIL/);
    const json = await runCli(['conformance', `${REFUSED_ORIGIN}/hook`, '--secret', SECRET, '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ event: 'error', code: 'unreachable', cause: 'ECONNREFUSED' });
  });

  it('a receiver answering after 6 s: a progress line per case saying it timed out, and a stop after 3 in a row', async () => {
    const slow = await startHttpServer(async (req, res) => {
      await readAll(req);
      setTimeout(() => res.writeHead(200).end(), 6000).unref();
    });
    servers.push(slow);
    const r = await runCli([
      'conformance',
      `${slow.url}/hook`,
      '--secret',
      SECRET,
      '--timeout-ms',
      '300',
      '--progress',
    ]);
    expect(r.code).toBe(1);
    expect(r.ms).toBeLessThan(45_000); // three timeouts of 300 ms (plus a loaded machine), not 20 cases × 5 s = 100 s
    const progress = r.stderr.trimEnd().split('\n');
    expect(progress).toHaveLength(3);
    progress.forEach((line, i) =>
      expect(line).toMatch(
        new RegExp(`^\\[ ?${i + 1}/20\\] FAIL  MUST +signed-\\w+  -  \\d+ ms  timed out: no answer within 300 ms`),
      ),
    );
    expect(r.stdout).toMatch(/stopped early: 3 requests in a row got no answer within 300 ms.*\(17 cases not run\)/);
    expect(r.stdout).not.toMatch(/forged/);
  });

  it('a receiver slow only to refuse: the refusal cases say they timed out, never that it accepts a forged request', async () => {
    const rx = createReceiver({ secret: SECRET, onMessage: () => {}, logger: { warn: () => {} } });
    const listener = toNodeListener(rx);
    const slowToRefuse = await startHttpServer((req, res) => {
      const sig = req.headers['x-signature'];
      if (typeof sig === 'string' && /^[0-9a-f]{40}$/.test(sig)) return void listener(req, res);
      req.resume();
      setTimeout(() => res.writeHead(401).end(), 6000).unref();
    });
    servers.push(slowToRefuse);
    const r = await runCli([
      'conformance',
      `${slowToRefuse.url}/hook`,
      '--secret',
      SECRET,
      '--timeout-ms',
      '400',
      '--json',
    ]);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout.trimEnd().split('\n').at(-1)!) as {
      cases: Array<{ id: string; passed: boolean; detail: string }>;
    };
    const missing = report.cases.find((c) => c.id === 'missing-signature')!;
    expect(missing.passed).toBe(false);
    expect(missing.detail).toMatch(/^timed out: no answer within 400 ms instead of a 4xx/);
    expect(r.stdout).not.toMatch(/forged/);
  });

  it('a good receiver: 20/20 with a progress line per case on stderr, none with --json', async () => {
    const rx = createReceiver({ secret: SECRET, onMessage: () => {}, logger: { warn: () => {} } });
    const good = await startHttpServer(toNodeListener(rx));
    servers.push(good);
    const r = await runCli(['conformance', `${good.url}/hook`, '--secret', SECRET, '--progress']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/20\/20 passed; no MUST failure/);
    const progress = r.stderr.trimEnd().split('\n');
    expect(progress).toHaveLength(20);
    expect(progress.every((l, i) => l.startsWith(`[${String(i + 1).padStart(2)}/20] PASS`))).toBe(true);
    const json = await runCli(['conformance', `${good.url}/hook`, '--secret', SECRET, '--json', '--progress']);
    expect(json.code).toBe(0);
    expect(json.stderr).toBe('');
  });

  it('shows progress on a terminal without --progress (run under script(1), which gives it a TTY)', async () => {
    const rx = createReceiver({ secret: SECRET, onMessage: () => {}, logger: { warn: () => {} } });
    const good = await startHttpServer(toNodeListener(rx));
    servers.push(good);
    const child = spawn(
      'script',
      ['-qec', `${process.execPath} ${CLI} conformance ${good.url}/hook --secret ${SECRET}`, '/dev/null'],
      {
        env: { ...process.env, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    const progress = out.split(/\r?\n/).filter((l) => /^\[ ?\d+\/20\] PASS/.test(l));
    expect(progress).toHaveLength(20);
    expect(out).toMatch(/20\/20 passed/);
  });
});
