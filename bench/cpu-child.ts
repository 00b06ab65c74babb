// CPU time per request of a server in a child process (bench/receiver-ab.ts, bench/telemetry.ts): the
// child prints `PORT=<port>` once listening and `CPU=<µs>` (its user + system CPU) for each line it
// reads; the parent loads a route with autocannon between two readings. And the in-process measure.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

/**
 * CPU µs per call of `f`, awaited in batches of 100, for about 100 ms.
 *
 * @example
 * const us = await cpuPerCall(() => receiver.handle(input));
 */
export async function cpuPerCall(f: () => unknown): Promise<number> {
  let n = 0;
  const start = performance.now();
  const cpu = process.cpuUsage();
  while (performance.now() - start < 100) {
    const batch: unknown[] = [];
    for (let i = 0; i < 100; i++) batch.push(f());
    await Promise.all(batch);
    n += 100;
  }
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / n;
}

/**
 * The child's side: answers each line on stdin with its CPU time so far (`CPU=<µs>`).
 *
 * @example
 * server.listen(0, '127.0.0.1', () => console.log(`PORT=${port}`));
 * answerCpuReadings();
 */
export function answerCpuReadings(): void {
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', () => {
    const { user, system } = process.cpuUsage();
    console.log(`CPU=${user + system}`);
  });
}

/** A server child: where it listens, and the CPU µs per request of one autocannon run against a path. */
export interface CpuChild {
  /** Server CPU µs per request of `seconds` of POSTs of `body` to `path` (10 connections); throws on a non-2xx. */
  cpuPerRequest(path: string, body: Buffer, headers: Record<string, string>, seconds: number): Promise<number>;
  kill(): void;
}

/**
 * Starts `script` with `args` in a child (the same Node flags) and waits for its `PORT=` line.
 *
 * @example
 * const child = await startCpuChild(fileURLToPath(import.meta.url), ['--serve']);
 * const us = await child.cpuPerRequest('/A', raw, headers, 2);
 */
export async function startCpuChild(script: string, args: string[]): Promise<CpuChild> {
  type Cannon = (o: Record<string, unknown>) => Promise<{ requests: { total: number }; non2xx: number }>;
  const autocannon = createRequire(import.meta.url)('autocannon') as Cannon;
  const child = spawn(process.execPath, [...process.execArgv, script, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let rest = '';
  child.stdout.on('data', (chunk: Buffer) => {
    rest += chunk.toString();
    for (let i = rest.indexOf('\n'); i >= 0; i = rest.indexOf('\n')) {
      const line = rest.slice(0, i);
      rest = rest.slice(i + 1);
      const next = waiting.shift();
      if (next) next(line);
      else lines.push(line);
    }
  });
  const nextLine = () =>
    new Promise<string>((resolve) => (lines.length ? resolve(lines.shift()!) : waiting.push(resolve)));
  const port = Number((await nextLine()).replace('PORT=', ''));
  const serverCpu = async () => {
    child.stdin.write('\n');
    return Number((await nextLine()).replace('CPU=', ''));
  };
  return {
    async cpuPerRequest(path, body, headers, seconds) {
      const before = await serverCpu();
      const result = await autocannon({
        url: `http://127.0.0.1:${port}${path}`,
        method: 'POST',
        connections: 10,
        duration: seconds,
        body,
        headers,
      });
      if (result.non2xx > 0) throw new Error(`${path} answered ${result.non2xx} requests with a non-2xx status`);
      return ((await serverCpu()) - before) / result.requests.total;
    },
    kill: () => child.kill(),
  };
}
