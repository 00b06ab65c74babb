// Runs test/runtimes/workerd-worker.ts under a real workerd (the `workerd` npm package's binary):
// bundles it with esbuild from the built packages, writes a Cap'n Proto config with one service and
// one socket per target, binds every socket to 127.0.0.1 port 0, and learns the ports from workerd's
// control channel (`--control-fd`), which reports `{"event":"listen","socket":…,"port":…}` per socket.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './spawn-server.js';

const require = createRequire(import.meta.url);

/** The workerd binary the npm package installed for this platform, or undefined where there is none. */
export function workerdBinary(): string | undefined {
  try {
    return (require('workerd') as { default: string }).default;
  } catch {
    return undefined;
  }
}

/** One service of the config: its socket name, its `TARGET` binding (or other text bindings) and compatibility flags. */
export interface WorkerdService {
  name: string;
  target?: 'core' | 'hono-on' | 'hono-next' | 'hono-ctx';
  /** Text bindings of the worker's `env` (a secret, as `wrangler secret put` gives one). */
  bindings?: Record<string, string>;
  compatibilityFlags?: string[];
}

/** A running workerd: the base URL of each service, and a closer. */
export interface RunningWorkerd {
  urls: Record<string, string>;
  /** The bundled worker's source (esbuild names every input file in a comment). */
  bundle: string;
  close(): Promise<void>;
}

const COMPATIBILITY_DATE = '2025-09-01';

function capnpConfig(services: readonly WorkerdService[]): string {
  const svc = services.map(
    (s) =>
      `    (name = "${s.name}", worker = (modules = [(name = "worker.mjs", esModule = embed "worker.mjs")], ` +
      `compatibilityDate = "${COMPATIBILITY_DATE}", compatibilityFlags = [${(s.compatibilityFlags ?? []).map((f) => `"${f}"`).join(', ')}], ` +
      `bindings = [${Object.entries({ ...(s.target ? { TARGET: s.target } : {}), ...s.bindings })
        .map(([name, text]) => `(name = "${name}", text = ${JSON.stringify(text)})`)
        .join(', ')}]))`,
  );
  const sockets = services.map(
    (s) => `    (name = "${s.name}", address = "127.0.0.1:0", http = (), service = "${s.name}")`,
  );
  return [
    'using Workerd = import "/workerd/workerd.capnp";',
    'const config :Workerd.Config = (',
    `  services = [\n${svc.join(',\n')}\n  ],`,
    `  sockets = [\n${sockets.join(',\n')}\n  ],`,
    ');',
    '',
  ].join('\n');
}

/** Bundles the worker (ESM, the Workers resolve conditions, the built packages) into `dir/worker.mjs`. */
export function bundleWorker(dir: string): string {
  const out = path.join(dir, 'worker.mjs');
  execFileSync(
    path.join(ROOT, 'node_modules/.bin/esbuild'),
    [
      'test/runtimes/workerd-worker.ts',
      '--bundle',
      '--format=esm',
      '--platform=browser',
      '--conditions=workerd,worker,browser',
      '--target=es2022',
      // No "paths": @hookgate/* resolve through node_modules to packages/*/dist, not to src/.
      '--tsconfig=test/runtimes/tsconfig.dist.json',
      `--outfile=${out}`,
      '--log-level=error',
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return out;
}

/** Starts workerd with the given services; resolves once every socket listens (or rejects with its output). */
export function startWorkerd(
  services: readonly WorkerdService[],
  {
    timeoutMs = 30_000,
    bundle: bundleInto = bundleWorker,
  }: {
    timeoutMs?: number;
    /** Writes the worker into `dir`, returns its path; default `bundleWorker`. */ bundle?: (dir: string) => string;
  } = {},
): Promise<RunningWorkerd> {
  const bin = workerdBinary();
  if (!bin) throw new Error('the workerd binary is missing: install the workspace devDependencies (`pnpm install`).');
  const dir = mkdtempSync(path.join(tmpdir(), 'hookgate-workerd-'));
  const bundle = readFileSync(bundleInto(dir), 'utf8');
  writeFileSync(path.join(dir, 'config.capnp'), capnpConfig(services));

  const child = spawn(bin, ['serve', 'config.capnp', '--control-fd=3'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  return new Promise((resolve, reject) => {
    const urls: Record<string, string> = {};
    let control = '';
    const fail = (why: string) => {
      clearTimeout(timer);
      void close();
      reject(
        new Error(`workerd ${why}\n--- config ---\n${capnpConfig(services)}--- output ---\n${output.slice(-4_000)}`),
      );
    };
    const timer = setTimeout(() => fail(`did not listen on every socket within ${timeoutMs} ms`), timeoutMs);
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (c: Buffer) => {
      control += c.toString();
      const lines = control.split('\n');
      control = lines.pop()!;
      for (const line of lines) {
        const event = JSON.parse(line) as { event?: string; socket?: string; port?: number };
        if (event.event === 'listen' && event.socket && event.port)
          urls[event.socket] = `http://127.0.0.1:${event.port}`;
      }
      if (services.every((s) => urls[s.name])) {
        clearTimeout(timer);
        resolve({ urls, bundle, close });
      }
    });
    child.once('error', (e) => fail(`could not start (${e.message})`));
    child.once('exit', (code, signal) => fail(`exited early (code ${code}, signal ${signal})`));
  });
}
