// `listen` keeps its log within a byte budget as well as a count, over real HTTP: past the budget the
// oldest requests are dropped first (and counted), and what is dropped is really freed — a 1 MiB body
// refused 401 no longer stays in memory through a 20-character excerpt of it (a finding's `raw`, the
// 64 KiB view cut), which grew a listener from 55 MB to 1 GB over 900 such requests.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import v8 from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_LISTEN_LOG_BYTES, startListener } from '../../src/index.js';

const open: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** A JSON body of about `bytes` bytes ending in a number that does not survive a round trip (so the mismatch is explained). */
function body(bytes: number, seq: number): string {
  const unit = '{"s":"abcdefghijklmnopqrstuvwxyz0123456789"},';
  return `{"type":"track","event":"Big ${seq}","userId":"u1","properties":{"items":[${unit.repeat(Math.floor(bytes / unit.length))}{"n":1.0}]}}`;
}

async function post(url: string, text: string): Promise<number> {
  const res = await fetch(`${url}/hook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature': '0'.repeat(40) },
    body: text,
  });
  await res.arrayBuffer();
  return res.status;
}

describe('listen: the log is bounded by bytes', () => {
  it('drops the oldest requests past maxLogBytes, counts them, and the views say so', async () => {
    const listener = await startListener({ secret: 's3cret', maxLogBytes: 1024 * 1024 });
    open.push(listener);
    for (let i = 1; i <= 40; i++) expect(await post(listener.url, body(100_000, i))).toBe(401);
    const records = listener.log.records;
    expect(records.length).toBeGreaterThan(5);
    expect(records.length).toBeLessThan(40);
    expect(listener.log.bytes).toBeLessThanOrEqual(1024 * 1024);
    // Oldest first: what is kept is the newest, in order.
    expect(records.at(-1)?.id).toBe('in_40');
    expect(records.map((r) => Number(r.id.slice(3)))).toEqual(
      Array.from({ length: records.length }, (_, i) => 41 - records.length + i),
    );
    expect(listener.log.dropped).toBe(40 - records.length);
    const view = (await (await fetch(`${listener.url}/_hookgate/inbound`)).json()) as {
      total: number;
      dropped: number;
    };
    expect(view).toMatchObject({ total: records.length, dropped: 40 - records.length });
  });

  it('always keeps the newest request, even one larger than the budget', async () => {
    const listener = await startListener({ secret: 's3cret', maxLogBytes: 1000 });
    open.push(listener);
    expect(await post(listener.url, body(20_000, 1))).toBe(401);
    expect(await post(listener.url, body(20_000, 2))).toBe(401);
    expect(listener.log.records.map((r) => r.id)).toEqual(['in_2']);
  });

  it('defaults to 100 MiB and refuses a budget that is not a whole number ≥ 1', async () => {
    expect(DEFAULT_LISTEN_LOG_BYTES).toBe(100 * 1024 * 1024);
    expect(DEFAULT_LISTEN_LOG_BYTES).toBeLessThanOrEqual(128_000_000);
    await expect(startListener({ secret: 's', maxLogBytes: 0 })).rejects.toThrow(/maxLogBytes must be a whole number/);
  });

  it('frees what it drops: 50 refused bodies of 1 MiB under a 2 MiB budget keep the heap small', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const listener = await startListener({ secret: 's3cret', maxLogBytes: 2 * 1024 * 1024 });
    open.push(listener);
    gc();
    const before = process.memoryUsage().heapUsed;
    const text = body(1024 * 1024 - 200, 0);
    for (let i = 0; i < 50; i++) expect(await post(listener.url, text)).toBe(401);
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    // The budget (2 MiB) plus room for the server's own state; with excerpts holding whole bodies,
    // the ~30 records within the budget hold ~30 MiB (and without a budget, 50 MiB).
    expect(grown).toBeLessThan(12 * 1024 * 1024);
  }, 60_000);
});

describe('hookgate listen --max-log-bytes (the CLI, spawned from the sources)', () => {
  const root = fileURLToPath(new URL('../../../../', import.meta.url));
  const cli = (args: string[]) =>
    spawn(process.execPath, ['--import', 'tsx', 'packages/emulator/src/cli.ts', 'listen', ...args], {
      cwd: root,
      env: { ...process.env, HOOKGATE_SECRET: 's3cret', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });

  it('keeps the views within the budget given, dropping the oldest', async () => {
    const child = cli(['--port', '0', '--max-log-bytes', '30000']);
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.stdout.resume();
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      const deadline = Date.now() + 20_000;
      while (!/listen on (http:\/\/127\.0\.0\.1:\d+)/.test(stderr)) {
        if (Date.now() > deadline) throw new Error(`no banner: ${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const url = /listen on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)?.[1] as string;
      for (let i = 1; i <= 5; i++) expect(await post(url, body(10_000, i))).toBe(401);
      const view = (await (await fetch(`${url}/_hookgate/inbound`)).json()) as {
        total: number;
        dropped: number;
        requests: Array<{ id: string }>;
      };
      expect(view.total + view.dropped).toBe(5);
      expect(view.dropped).toBeGreaterThanOrEqual(2);
      expect(view.requests[0]?.id).toBe('in_5');
    } finally {
      child.kill('SIGINT');
      await closed;
    }
  }, 30_000);

  it('--max-log-bytes 0 is a usage error naming the flag', async () => {
    const child = cli(['--port', '0', '--max-log-bytes', '0']);
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('--max-log-bytes must be a whole number from 1');
  }, 30_000);
});
