// A real redis-server for tests, examples and benchmarks: a free port on 127.0.0.1, a temp dir, no persistence.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** A running redis-server started by `startRedisServer`. */
export interface RunningRedis {
  /** Always 127.0.0.1. */
  host: string;
  port: number;
  /** `redis://127.0.0.1:<port>`, for ioredis. */
  url: string;
  /** The server's working directory (removed by `stop`). */
  dir: string;
  /** The redis-server process id, or undefined while stopped. */
  readonly pid: number | undefined;
  /** Stops the server (SIGTERM, then SIGKILL after 3 s); the port and directory are kept for `restart`. */
  kill(): Promise<void>;
  /** Starts the server again on the same port after `kill` (empty: nothing is persisted). */
  restart(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open, nothing is answered, like a hung Redis. */
  pause(): void;
  /** Thaws a paused server (SIGCONT). */
  resume(): void;
  /** Stops the server for good and removes its directory. */
  stop(): Promise<void>;
}

/** Options of `startRedisServer`. */
export interface StartRedisOptions {
  /** Path of the binary. Default: `$REDIS_SERVER_BIN`, else `redis-server` found on PATH or in /usr/bin. */
  bin?: string;
  /** How long to wait for the first PONG. Default 10 s. */
  readyTimeoutMs?: number;
  /** More redis-server arguments, e.g. `['--cluster-enabled', 'yes']`. */
  args?: string[];
}

const INSTALL_HINT =
  "The Redis tests and `pnpm example:redis` need a real redis-server: install Debian's package with `sudo apt-get install -y redis-server` " +
  "(CI's .ci/run installs it when missing), or set REDIS_SERVER_BIN to the binary.";

/**
 * Finds the redis-server binary: `bin`, else `$REDIS_SERVER_BIN`, else PATH, /usr/bin, /usr/local/bin.
 * Throws an error that says how to install it (tests fail, never skip, without Redis).
 */
export function findRedisServer(bin?: string): string {
  const explicit = bin ?? process.env.REDIS_SERVER_BIN;
  if (explicit) {
    if (existsSync(explicit)) return explicit;
    throw new Error(
      `redis-server was not found at ${explicit} (${bin ? 'the bin option' : 'REDIS_SERVER_BIN'}). ${INSTALL_HINT}`,
    );
  }
  const candidates = [
    ...(process.env.PATH ?? '')
      .split(delimiter)
      .filter(Boolean)
      .map((d) => join(d, 'redis-server')),
    '/usr/bin/redis-server',
    '/usr/local/bin/redis-server',
  ];
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error(`redis-server was not found on PATH, in /usr/bin or in /usr/local/bin. ${INSTALL_HINT}`);
  return found;
}

/** A port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Sends PING over a raw socket; resolves true on `+PONG`. */
export function ping(port: number, host = '127.0.0.1', timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('latin1');
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts `redis-server --port <free port> --save '' --appendonly no --dir <tmp>` on 127.0.0.1 and waits
 * for PONG. Throws (never skips) when the binary is missing, telling how to install it.
 *
 * @example
 * const redis = await startRedisServer();
 * const client = new Redis(redis.url);
 * // …
 * await redis.stop();
 */
export async function startRedisServer(options: StartRedisOptions = {}): Promise<RunningRedis> {
  const bin = findRedisServer(options.bin);
  const readyTimeoutMs = options.readyTimeoutMs ?? 10_000;
  const dir = await mkdtemp(join(tmpdir(), 'hookgate-redis-'));
  let child: ChildProcess | undefined;
  let port = 0;
  let output = '';

  const launch = async (): Promise<void> => {
    output = '';
    const proc = spawn(
      bin,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
        '--daemonize',
        'no',
        '--loglevel',
        'warning',
        ...(options.args ?? []),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = proc;
    proc.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    proc.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    let exited = false;
    proc.once('exit', () => (exited = true));
    const deadline = Date.now() + readyTimeoutMs;
    while (Date.now() < deadline) {
      if (exited) break;
      if (await ping(port)) return;
      await sleep(25);
    }
    proc.kill('SIGKILL');
    child = undefined;
    throw new Error(
      `redis-server on port ${port} did not answer PING within ${readyTimeoutMs} ms${exited ? ' (it exited)' : ''}. Its output:\n${output.trim()}`,
    );
  };

  // The free port may be taken between the probe and the start: try a few.
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    port = await freePort();
    try {
      await launch();
      lastError = undefined;
      break;
    } catch (error) {
      lastError = error;
    }
  }
  if (lastError) {
    await rm(dir, { recursive: true, force: true });
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows what the last attempt threw, as it was
    throw lastError;
  }

  const kill = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill('SIGCONT'); // a paused server cannot act on SIGTERM
    const exited = once(proc, 'exit');
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
  };

  return {
    host: '127.0.0.1',
    get port() {
      return port;
    },
    get url() {
      return `redis://127.0.0.1:${port}`;
    },
    dir,
    get pid() {
      return child?.pid;
    },
    kill,
    restart: async () => {
      await kill();
      await launch();
    },
    pause: () => {
      child?.kill('SIGSTOP');
    },
    resume: () => {
      child?.kill('SIGCONT');
    },
    stop: async () => {
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
