// `hookgate listen --json` for a script: its first stdout line says where it listens (with --port 0
// nothing else on stdout tells the port, and the banner is on stderr), then one line per request,
// then the summary. The bin runs from its build in its own process; requests over real HTTP.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { CLI, requireBuiltCli } from '../helpers/cli-process.js';

describe('hookgate listen --json', () => {
  it('prints a listening line with the URL first, then each request, then the summary', async () => {
    requireBuiltCli();
    const child = spawn(process.execPath, [CLI, 'listen', '--port', '0', '--json', '--secret', 'listen-json-secret'], {
      env: { ...process.env, NO_COLOR: '', DEBUG: '', HOOKGATE_SECRET: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const iterator = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      const lines = {
        next: () =>
          Promise.race([
            iterator.next(),
            new Promise<never>((_, reject) =>
              setTimeout(() => reject(new Error('no stdout line within 15 s')), 15_000),
            ),
          ]),
      };
      const first = JSON.parse((await lines.next()).value as string) as Record<string, unknown>;
      expect(first).toMatchObject({ kind: 'listening', verifying: true, forwardTo: null });
      expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(first.inspector).toBe(`${first.url as string}/`);
      expect(JSON.stringify(first)).not.toContain('listen-json-secret');
      const answer = await fetch(`${first.url as string}/hook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"type":"track"}',
      });
      expect(answer.status).toBe(401); // unsigned, not forwarded
      const request = JSON.parse((await lines.next()).value as string) as Record<string, unknown>;
      expect(request).toMatchObject({ kind: 'request', method: 'POST', path: '/hook' });
      child.kill('SIGINT');
      const summary = JSON.parse((await lines.next()).value as string) as Record<string, unknown>;
      expect(summary).toMatchObject({ kind: 'summary', requests: 1, refused: 1 });
    } finally {
      if (child.exitCode === null) {
        child.kill('SIGINT');
        await once(child, 'close');
      }
    }
  }, 60_000);
});
