// Starts a server script under another runtime (Bun, Deno) and reads the URL it prints.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureRuntime } from './ensure-runtime.js';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A runtime binary (the `bun` and `deno` npm packages), fetched on first use by `ensureRuntime`. */
export function runtimeBinary(name: 'bun' | 'deno'): string | undefined {
  return ensureRuntime(name);
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * Throws a clear error unless the built packages exist and are not older than their sources:
 * the other runtimes import `dist/`, which `pnpm test` builds first (or `npx tsup` in each package).
 */
export function assertBuilt(packages: readonly string[]): void {
  for (const name of packages) {
    const dist = path.join(ROOT, 'packages', name, 'dist', 'index.js');
    if (!existsSync(dist)) {
      throw new Error(
        `packages/${name}/dist is missing: run \`pnpm build\` (or \`cd packages/${name} && npx tsup\`) before these tests.`,
      );
    }
    if (newestMtime(path.join(ROOT, 'packages', name, 'src')) > statSync(dist).mtimeMs) {
      throw new Error(
        `packages/${name}/dist is older than its sources: run \`pnpm build\` (or \`cd packages/${name} && npx tsup\`) again.`,
      );
    }
  }
}

/** A server process and the URL it printed. */
export interface SpawnedServer {
  url: string;
  child: ChildProcess;
  /** Ends the process group (SIGTERM, then SIGKILL after 2 s) and waits for the process. */
  close(): Promise<void>;
}

/**
 * Spawns `command args…` in the repository root and waits (up to `timeoutMs`) for a line
 * `HOOKGATE_URL=<url>` on stdout. Fails with the process's output if it exits or times out first.
 */
export function spawnServer(command: string, args: string[], { timeoutMs = 30_000 } = {}): Promise<SpawnedServer> {
  // Its own process group: the npm shims of bun and deno run the real binary as a child, so the whole
  // group is signalled on close, never just the shim.
  const child = spawn(command, args, {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1' },
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  const close = async () => {
    const running = child.exitCode === null && child.signalCode === null;
    signalGroup('SIGTERM');
    if (!running) return;
    const timer = setTimeout(() => signalGroup('SIGKILL'), 2_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      void close();
      reject(new Error(`${why}: ${command} ${args.join(' ')}\n--- output ---\n${output.slice(-4_000)}`));
    };
    const timer = setTimeout(() => fail(`no HOOKGATE_URL line within ${timeoutMs} ms`), timeoutMs);
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
      const match = /HOOKGATE_URL=(\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1]!, child, close });
      }
    });
    child.once('error', (e) => fail(`could not start (${e.message})`));
    child.once('exit', (code, signal) => fail(`exited early (code ${code}, signal ${signal})`));
  });
}
