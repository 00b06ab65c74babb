// Receivers and workers in child processes (tsx), with their JSON stdout lines, and a sender that
// posts signed messages over keep-alive HTTP and retries 503s the way the real sender does.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { fixture, sign, type TrackMessage } from '@hookgate/core';

export const SECRET = 'whsec_bullmq_test_secret';
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** A child process and the JSON lines it printed. */
export interface Child {
  proc: ChildProcess;
  lines: Array<Record<string, unknown>>;
  stderr: string;
  /** Resolves with the first line (already printed or to come) that `match` accepts. */
  waitFor(match: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

function start(file: string, env: Record<string, string>): Child {
  const proc = spawn(process.execPath, ['--import', 'tsx', `${fixtures}${file}`], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Array<Record<string, unknown>> = [];
  const waiters = new Set<() => void>();
  let buffered = '';
  const child: Child = {
    proc,
    lines,
    stderr: '',
    waitFor(match, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = lines.find(match);
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `${file}: no matching line within ${timeoutMs} ms; exit ${proc.exitCode ?? proc.signalCode}; stderr:\n${child.stderr.slice(-2000)}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async kill(signal = 'SIGTERM') {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill(signal);
      const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
  proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const text = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      try {
        lines.push(JSON.parse(text) as Record<string, unknown>);
      } catch {
        child.stderr += `(stdout) ${text}\n`;
      }
    }
    for (const w of [...waiters]) w();
  });
  proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (child.stderr += chunk));
  return child;
}

/** A receiver process (core's node listener, enqueue: enqueueTo(queue)); resolves once it listens. */
export async function startReceiver(env: {
  redisPort: number;
  queue: string;
  deadlineMs?: number;
}): Promise<Child & { url: string }> {
  const child = start('receiver-process.ts', {
    REDIS_PORT: String(env.redisPort),
    QUEUE: env.queue,
    WEBHOOK_SECRET: SECRET,
    DEADLINE_MS: String(env.deadlineMs ?? 4000),
  });
  const { port } = await child.waitFor((l) => 'port' in l);
  return Object.assign(child, { url: `http://127.0.0.1:${String(port)}/` });
}

/** A worker process; resolves once BullMQ's worker is connected. */
export async function startWorker(env: {
  redisPort: number;
  queue: string;
  name: string;
  concurrency?: number;
  lockMs?: number;
  stalledMs?: number;
  hangKey?: string;
  hangWorker?: string;
}): Promise<Child> {
  const child = start('worker-process.ts', {
    REDIS_PORT: String(env.redisPort),
    QUEUE: env.queue,
    NAME: env.name,
    CONCURRENCY: String(env.concurrency ?? 20),
    LOCK_MS: String(env.lockMs ?? 30_000),
    STALLED_MS: String(env.stalledMs ?? 30_000),
    HANG_KEY: env.hangKey ?? '',
    HANG_WORKER: env.hangWorker ?? '',
  });
  await child.waitFor((l) => 'ready' in l);
  return child;
}

/** A track message in the sender's shape (core's fixture) with its own messageId. */
export function trackMessage(messageId: string): TrackMessage {
  return { ...fixture('track'), messageId } as TrackMessage;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One signed POST, as the classic sender makes it; resolves with the status and the answer's code. */
export function post(
  url: string,
  body: string,
  timeoutMs = 10_000,
  signature = sign(body, SECRET),
): Promise<{ status: number; code: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'x-signature': signature,
          'user-agent': 'Segment.io/1.0',
          'content-length': Buffer.byteLength(body),
        },
        timeout: timeoutMs,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => {
          let code = '';
          try {
            code = String((JSON.parse(text) as { code?: unknown }).code);
          } catch {
            code = text.slice(0, 80);
          }
          resolve({ status: res.statusCode ?? 0, code, ms: performance.now() - started });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

/** Posts until a 2xx, retrying 5xx like the sender (short pauses here instead of its backoff). */
export async function deliver(url: string, body: string): Promise<{ status: number; code: string }> {
  for (let attempt = 0; ; attempt++) {
    const answer = await post(url, body);
    if (answer.status < 500 || attempt >= 20) return answer;
    await new Promise((r) => setTimeout(r, 50 + attempt * 50));
  }
}

/** Runs `task` over `items` with at most `limit` at once. */
export async function pool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await task(items[next++]!);
    }),
  );
}

export function closeAgent(): void {
  agent.destroy();
}
