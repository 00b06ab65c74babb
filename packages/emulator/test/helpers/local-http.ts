// Raw HTTP requests for the local-server tests: any Host header (fetch cannot set one), any local
// address, and event streams read for a while then dropped.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** For an event stream: how long to read before dropping the connection. Default 300 ms. */
  streamMs?: number;
}

/** Sends one request with exactly these headers (Host included, when given) and reads its answer. */
export function rawRequest(url: string, options: RawRequest = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: options.method ?? 'GET', headers: options.headers ?? {}, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
        res.on('end', done);
        if (String(res.headers['content-type']).startsWith('text/event-stream')) {
          setTimeout(() => {
            done();
            req.destroy();
          }, options.streamMs ?? 300);
        }
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A non-loopback IPv4 address of this machine (to reach a server bound to 0.0.0.0 from off loopback), if any. */
export function externalIPv4(): string | undefined {
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return undefined;
}

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** The `hookgate` CLI run from its sources (tsx) as a child process; `waitFor` polls stdout + stderr. */
export function startCliFromSources(
  args: string[],
  env: Record<string, string> = {},
): {
  child: ChildProcess;
  out(): string;
  err(): string;
  exited: Promise<number | null>;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/emulator/src/cli.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', DEBUG: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    child,
    out: () => stdout,
    err: () => stderr,
    exited,
    async waitFor(pattern, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const m = pattern.exec(stdout + stderr);
        if (m) return m;
        if (Date.now() > until) throw new Error(`timed out waiting for ${pattern} in:\n${stdout}\n${stderr}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
  };
}
