// The `hookgate` bin as a child process, from its build (packages/emulator/dist/cli.js), for tests
// that drive the real CLI: run to completion, or start `serve` and signal its PID.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** Throws when the bin was not built. */
export function requireBuiltCli(): void {
  if (!existsSync(CLI))
    throw new Error(
      `${CLI} is missing: build first (cd packages/core && npx tsup; cd packages/emulator && npx tsup), as pnpm test does.`,
    );
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs `hookgate ...args` to its end (killed after `timeoutMs`), with stdin `input`. */
export function runCli(
  args: string[],
  options: { input?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<CliRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, NO_COLOR: '', DEBUG: '', ...options.env },
      stdio: 'pipe',
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
    child.stdin.end(options.input ?? '');
  });
}

export interface ServeProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  out(): string;
  err(): string;
}

/** Starts `hookgate serve --port 0 ...args`; `waitFor` polls its stdout. */
export function startServe(args: string[], env: Record<string, string> = {}): ServeProcess {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], {
    env: { ...process.env, NO_COLOR: '', DEBUG: '', ...env },
    stdio: 'pipe',
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const waitFor = async (pattern: RegExp, timeoutMs = 30_000) => {
    const until = Date.now() + timeoutMs;
    while (!pattern.test(stdout)) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${pattern} in:\n${stdout}\n${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return pattern.exec(stdout)!;
  };
  return { child, exited, waitFor, out: () => stdout, err: () => stderr };
}

/** Posts a tracking API call to the intake with the write key as Basic auth. */
export function postCall(intakeUrl: string, path: string, writeKey: string, body: unknown): Promise<Response> {
  return fetch(`${intakeUrl}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${writeKey}:`).toString('base64')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
}
