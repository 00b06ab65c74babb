// examples/client-quickstart.ts (the client README's example) against the real `hookgate serve`:
// the default write keys agree, and on a failure the example prints the whole error and exits 1.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readAll, startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';
import { requireBuiltCli, startServe, type ServeProcess } from '../helpers/cli-process.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const EXAMPLE = fileURLToPath(new URL('../../../../examples/client-quickstart.ts', import.meta.url));
let receiver: RunningServer | undefined;
let serve: ServeProcess | undefined;

beforeAll(() => requireBuiltCli());
afterEach(async () => {
  if (serve && serve.child.exitCode === null) {
    serve.child.kill('SIGINT');
    await serve.exited;
  }
  await receiver?.close();
});

function runExample(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', EXAMPLE], {
      cwd: ROOT,
      env: { ...process.env, TSX_TSCONFIG_PATH: `${ROOT}tsconfig.json`, DEBUG: '', ...env },
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

describe('the client quick start against hookgate serve', { timeout: 120000 }, () => {
  it('works with both defaults (write key hookgate-dev), and a wrong key exits 1 with the whole 401 answer', async () => {
    let delivered = 0;
    receiver = await startHttpServer(async (req, res) => {
      await readAll(req);
      delivered++;
      res.writeHead(200).end();
    });
    serve = startServe(['--endpoint', `${receiver.url}/hook`]);
    const [, url] = await serve.waitFor(/intake listening on (http:\/\/127\.0\.0\.1:\d+)/);
    expect(serve.out()).toMatch(/write key {3}hookgate-dev /);

    const ok = await runExample({ INTAKE_URL: url! });
    expect(ok.stderr).toBe('');
    expect(ok).toMatchObject({ code: 0 });
    expect(ok.stdout).toMatch(/5 calls accepted/);
    await serve.waitFor(/(delivered[\s\S]*){5}/);
    expect(delivered).toBe(5);

    const wrong = await runExample({ INTAKE_URL: url!, WRITE_KEY: 'wk_dev' });
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toBe('');
    // The whole answer: the intake's message to its last word, and the JSON closed.
    expect(wrong.stderr).toMatch(
      /^DeliveryError: .*HTTP 401: \{.*"code":"unknown_write_key".*the one `hookgate serve` prints\)\.".*\}/m,
    );
    expect(wrong.stderr).toMatch(/5 message\(s\) not delivered/);
    expect(wrong.stderr).toMatch(/1 batch\(es\) failed\./);
  });
});
