// `pnpm demo` (examples/demo.ts), run as a script from the built packages, exactly as the README's first command does.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the demo', () => {
  it('delivers one call of every type plus a retried one, prints the table, and exits 0 on its own in under 30 s', async () => {
    const started = Date.now();
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'examples/demo.ts'], {
          cwd: root,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (c) => (stdout += c));
        child.stderr.on('data', (c) => (stderr += c));
        child.on('error', reject);
        child.on('close', (c) => resolve({ code: c, stdout, stderr }));
      },
    );
    const elapsed = Date.now() - started;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(elapsed).toBeLessThan(30_000);
    expect(stdout).toMatch(/^ +type +endpoint +attempts +final status +signature verified +handler saw it$/m);
    const rows = stdout
      .split('\n')
      .filter((l) => /^(ok|XX) /.test(l))
      .map((l) => l.trim().split(/ {2,}/));
    expect(rows.map((r) => r[1])).toEqual(['identify', 'track', 'page', 'screen', 'group', 'alias', 'track']);
    for (const r of rows.slice(0, 6))
      expect(r).toEqual(['ok', expect.any(String), expect.stringMatching(/\/webhooks$/), '1', '200', 'yes', 'yes']);
    expect(rows[6]).toEqual(['ok', 'track', expect.stringMatching(/\/billing-hooks$/), '2', '200', 'yes', 'yes']);
    expect(stdout).toMatch(/the 500 was retried/);
  });
});
