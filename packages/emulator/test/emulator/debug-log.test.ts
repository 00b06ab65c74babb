import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createEmulator, debugEnabled, ManualClock } from '@hookgate/emulator';
import { startCaptureReceiver } from '../helpers/capture-receiver.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const CHILD = fileURLToPath(new URL('../fixtures/debug-child.ts', import.meta.url));

function runChild(debug: string | undefined) {
  const env: NodeJS.ProcessEnv = { ...process.env, TSX_TSCONFIG_PATH: `${ROOT}tsconfig.json` };
  delete env.DEBUG;
  if (debug !== undefined) env.DEBUG = debug;
  const r = spawnSync(process.execPath, ['--import', 'tsx', CHILD], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.status, r.stderr).toBe(0);
  const out = JSON.parse(r.stdout) as { attempts: number; signatures: string[]; secrets: string[] };
  const lines = r.stderr.split('\n').filter((l) => l.startsWith('hookgate:emulator '));
  return { ...out, lines, stderr: r.stderr };
}

describe('debug logging with DEBUG=hookgate*', () => {
  it('writes one line per attempt to stderr, with no secret and the signature cut to 6 characters', () => {
    const { attempts, signatures, secrets, lines, stderr } = runChild('hookgate*');
    const attemptLines = lines.filter((l) => / POST /.test(l));
    expect(attempts).toBe(3); // 503 then 200 for the first message, 200 for the second
    expect(attemptLines).toHaveLength(attempts);
    expect(attemptLines[0]).toMatch(
      /^hookgate:emulator \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z dlv_\d+ (track|identify) round 1 POST http:\/\/hook:\*\*\*@127\.0\.0\.1:\d+\/in\?token=\*\*\* → \d{3}.* [\d.]+ms (delivered|retry) sig=[0-9a-f]{6}…\(40 chars\)$/,
    );
    expect(attemptLines.some((l) => / → 503 Service Unavailable .* retry sig=/.test(l))).toBe(true);
    expect(lines.some((l) => /dlv_3 track filtered: integrations: Webhooks is false/.test(l))).toBe(true);
    for (const secret of secrets) expect(stderr).not.toContain(secret);
    for (const signature of signatures) {
      expect(signature).toMatch(/^[0-9a-f]{40}$/);
      expect(stderr).not.toContain(signature);
      expect(stderr).toContain(`sig=${signature.slice(0, 6)}…(40 chars)`);
    }
  });

  it('is silent without DEBUG, and with DEBUG naming other namespaces or excluding hookgate', () => {
    expect(runChild(undefined).lines).toEqual([]);
    expect(runChild('express:*').lines).toEqual([]);
    expect(runChild('*,-hookgate:*').lines).toEqual([]);
    expect(runChild('hookgate:emulator').lines.length).toBeGreaterThan(0);
    // Four processes one after another, each loading the emulator's sources through tsx: seconds each, more on a
    // busy machine; no timing is under test.
  }, 120_000);

  it('the debug option takes a function for the lines (one per attempt), or false to silence DEBUG', async () => {
    const receiver = await startCaptureReceiver((_, i) => (i === 0 ? 500 : 200));
    const lines: string[] = [];
    const emulator = createEmulator({
      clock: new ManualClock(),
      debug: (line) => lines.push(line),
      sources: [
        {
          writeKey: 'wk',
          webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/h` }], sharedSecret: 'topsecret' },
        },
      ],
    });
    const record = emulator.track({ userId: 'u1', event: 'E' });
    await emulator.drain();
    expect(lines.filter((l) => l.includes(' POST '))).toHaveLength(record.attempts.length);
    expect(lines.join('\n')).not.toContain('topsecret');
    expect(lines.join('\n')).not.toContain(record.signature);
    await emulator.close();
    await receiver.close();
  });

  it('reads DEBUG like the debug package', () => {
    expect(debugEnabled('hookgate')).toBe(true);
    expect(debugEnabled('hookgate*')).toBe(true);
    expect(debugEnabled('hookgate:*')).toBe(true);
    expect(debugEnabled('app, hookgate:emulator')).toBe(true);
    expect(debugEnabled('*')).toBe(true);
    expect(debugEnabled('hookgate:client')).toBe(false);
    expect(debugEnabled('analytics')).toBe(false);
    expect(debugEnabled('hookgate*,-hookgate:emulator')).toBe(false);
    expect(debugEnabled(undefined)).toBe(false);
  });
});
