// A receiver, a worker and one Redis, started by one command: `pnpm example:bullmq`.
// The receiver stores three signed messages (one sent twice) and is then killed with SIGKILL; a worker
// started afterwards processes every acknowledged message, each once.
// `--serve` keeps a receiver and the worker running; `--redis-url redis://host:port` uses your Redis.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs, styleText } from 'node:util';
import { fixture, sign } from '@hookgate/core';
import { startRedisServer, type RunningRedis } from '../../test/helpers/redis-server.js';

const { values: args } = parseArgs({
  options: {
    serve: { type: 'boolean', default: false },
    'redis-url': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (args.help) {
  console.log('Usage: node --import tsx examples/bullmq/start.ts [--serve] [--redis-url redis://host:port]');
  process.exit(0);
}

const SECRET = process.env.WEBHOOK_SECRET ?? 'example-shared-secret';
const root = fileURLToPath(new URL('../../', import.meta.url));

let redis: RunningRedis | undefined;
let redisHost = '127.0.0.1';
let redisPort: number;
if (args['redis-url']) {
  const url = new URL(args['redis-url']);
  redisHost = url.hostname;
  redisPort = Number(url.port || 6379);
} else {
  redis = await startRedisServer();
  redisPort = redis.port;
  console.log(`redis-server on ${redis.url} (temporary, nothing persisted)`);
}

interface Child {
  proc: ChildProcess;
  lines: Array<Record<string, unknown>>;
  next(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

function start(file: string, label: string): Child {
  const proc = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(file, import.meta.url))], {
    cwd: root,
    env: { ...process.env, REDIS_HOST: redisHost, REDIS_PORT: String(redisPort), WEBHOOK_SECRET: SECRET, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Array<Record<string, unknown>> = [];
  const waiting: Array<() => void> = [];
  createInterface({ input: proc.stdout }).on('line', (text) => {
    const line = JSON.parse(text) as Record<string, unknown>;
    lines.push(line);
    if ('processed' in line)
      console.log(
        styleText('green', `  [${label}] processed ${String(line.processed)} (attempt ${String(line.attempt)})`),
      );
    waiting.splice(0).forEach((w) => w());
  });
  return {
    proc,
    lines,
    next: (match) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = lines.find(match);
          if (found) resolve(found);
          else if (proc.exitCode !== null || proc.signalCode !== null) reject(new Error(`${label} exited`));
          else waiting.push(check);
        };
        check();
      }),
  };
}

async function stop(child: Child): Promise<void> {
  if (child.proc.exitCode !== null || child.proc.signalCode !== null) return;
  const exited = once(child.proc, 'exit');
  child.proc.kill('SIGTERM');
  await exited;
}

async function deliver(url: string, body: string): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature': sign(body, SECRET), 'user-agent': 'Segment.io/1.0' },
    body,
  });
  const { code } = (await res.json()) as { code: string };
  return `${res.status} ${code}`;
}

const children: Child[] = [];
let ok = true;
try {
  const receiver = start('./receiver.ts', 'receiver');
  children.push(receiver);
  const url = `http://127.0.0.1:${String((await receiver.next((l) => 'port' in l)).port)}`;
  console.log(`receiver on ${url} (enqueue: enqueueTo(queue)); no worker yet\n`);

  const ids = ['order-1', 'order-2', 'order-3'].map((id) => `${id}-${Date.now()}`);
  // The sender's track message (core's fixture) with its messageId: the dedupe key, and so the job id.
  const order = (messageId: string) => JSON.stringify({ ...fixture('track', { event: 'Order Completed' }), messageId });
  for (const id of ids) {
    const answer = await deliver(url, order(id));
    console.log(`  ${id}: ${answer}  (the job is in Redis)`);
    ok &&= answer === '200 ok';
  }
  const again = await deliver(url, order(ids[0]!));
  console.log(`  ${ids[0]} again (the sender's retry): ${again}  (same job id: no second job)`);
  ok &&= again === '200 ok';

  console.log(styleText('bold', '\nKilling the receiver with SIGKILL: its memory is gone, the jobs are not.'));
  receiver.proc.kill('SIGKILL');
  await once(receiver.proc, 'exit');

  console.log('Starting a worker…');
  const worker = start('./worker.ts', 'worker');
  children.push(worker);
  await Promise.all(ids.map((id) => worker.next((l) => l.processed === id)));
  await new Promise((r) => setTimeout(r, 300)); // a second run would show up now
  const runs = worker.lines.filter((l) => 'processed' in l).length;
  ok &&= runs === ids.length;
  console.log(
    ok
      ? styleText(
          'bold',
          `\nEvery acknowledged message processed once (${runs} of ${ids.length}), after the receiver died.`,
        )
      : styleText('red', `\nUnexpected: ${runs} runs for ${ids.length} messages.`),
  );

  if (args.serve) {
    const receiver2 = start('./receiver.ts', 'receiver');
    children.push(receiver2);
    const url2 = `http://127.0.0.1:${String((await receiver2.next((l) => 'port' in l)).port)}`;
    const sample = JSON.stringify({ ...fixture('track'), messageId: 'try-me-1' });
    console.log(`\nServing until Ctrl+C: receiver on ${url2}, worker running (secret ${JSON.stringify(SECRET)}). Try:`);
    console.log(
      `  curl -i ${url2} -H 'content-type: application/json' -H 'x-signature: ${sign(sample, SECRET)}' --data '${sample.replace(/'/g, "'\\''")}'`,
    );
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
  }
} finally {
  await Promise.all(children.map(stop));
  await redis?.stop();
}
process.exitCode = ok ? 0 : 1;
