// A misbehaving endpoint (test/fixtures/hostile-endpoint.ts) as a child process: its URL and the
// number of requests it has read so far.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SCRIPT = fileURLToPath(new URL('../fixtures/hostile-endpoint.ts', import.meta.url));

export type HostileMode =
  | 'unsolicited-200'
  | 'unsolicited-500'
  | 'late-500'
  | 'plain-503'
  | 'close-after'
  | 'endless-200'
  | 'endless-503'
  | 'switch'
  | 'interim'
  | 'stalled-body';

export interface HostileEndpoint {
  url: string;
  /** Requests the endpoint has read (whole heads and bodies). */
  requests(): number;
  /** Connections the endpoint has accepted. */
  connections(): number;
  stop(): Promise<void>;
}

/**
 * Starts a hostile endpoint in its own process; resolves once it listens. `lowPriority`: the process
 * runs at nice 19, so it takes only the CPU the processes under test leave, as an endpoint on another
 * machine would.
 */
export function startHostileEndpoint(mode: HostileMode, { lowPriority = false } = {}): Promise<HostileEndpoint> {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, mode], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (lowPriority && child.pid !== undefined) os.setPriority(child.pid, 19);
  let out = '';
  let requests = 0;
  let connections = 0;
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`hostile endpoint ${mode} exited (${code}) before listening`)));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      let nl: number;
      while ((nl = out.indexOf('\n')) !== -1) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        if (line === 'request') requests++;
        if (line === 'connection') connections++;
        const port = /^port (\d+)$/.exec(line)?.[1];
        if (port)
          resolve({
            url: `http://127.0.0.1:${port}/hook`,
            requests: () => requests,
            connections: () => connections,
            stop: async () => {
              child.kill();
              await exited;
            },
          });
      }
    });
  });
}
