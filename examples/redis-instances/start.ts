// Two receiver instances and one Redis, started by one command: `pnpm example:redis`.
// Sends the same signed message to both instances at once and shows that it is handled once.
// `--serve` keeps everything running; `--redis-url redis://…` uses your Redis instead of starting one.
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
  console.log('Usage: node --import tsx examples/redis-instances/start.ts [--serve] [--redis-url redis://host:port]');
  process.exit(0);
}

const SECRET = process.env.WEBHOOK_SECRET ?? 'example-shared-secret';
const root = fileURLToPath(new URL('../../', import.meta.url));
const instanceFile = fileURLToPath(new URL('./instance.ts', import.meta.url));

interface Line {
  instance: string;
  port?: number;
  handled?: string | null;
}

interface RunningInstance {
  name: string;
  url: string;
  child: ChildProcess;
  handled: string[];
}

async function startInstance(name: string, redisUrl: string): Promise<RunningInstance> {
  const child = spawn(process.execPath, ['--import', 'tsx', instanceFile], {
    cwd: root,
    env: { ...process.env, INSTANCE: name, REDIS_URL: redisUrl, WEBHOOK_SECRET: SECRET, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const handled: string[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`instance ${name} exited with code ${code} before listening`)));
    createInterface({ input: child.stdout }).on('line', (text) => {
      const line = JSON.parse(text) as Line;
      if (line.port) resolve(line.port);
      if (line.handled !== undefined) {
        handled.push(String(line.handled));
        console.log(styleText('green', `  [${name}] handled ${line.handled}`));
      }
    });
  });
  return { name, url: `http://127.0.0.1:${port}`, child, handled };
}

async function deliver(instance: RunningInstance, body: string): Promise<{ status: number; code: string }> {
  const res = await fetch(instance.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature': sign(body, SECRET), 'user-agent': 'Segment.io/1.0' },
    body,
  });
  const json = (await res.json()) as { code: string };
  return { status: res.status, code: json.code };
}

async function stopInstance(instance: RunningInstance): Promise<void> {
  if (instance.child.exitCode !== null || instance.child.signalCode !== null) return;
  const exited = once(instance.child, 'exit');
  instance.child.kill('SIGTERM');
  await exited;
}

let redis: RunningRedis | undefined;
let redisUrl = args['redis-url'];
if (!redisUrl) {
  redis = await startRedisServer();
  redisUrl = redis.url;
  console.log(`redis-server on ${redisUrl} (temporary, nothing persisted)`);
}

const instances = await Promise.all([startInstance('A', redisUrl), startInstance('B', redisUrl)]);
for (const i of instances) console.log(`instance ${i.name} on ${i.url}`);

const shutdown = async () => {
  await Promise.all(instances.map(stopInstance));
  await redis?.stop();
};

let ok = true;
try {
  const message = fixture('track', { messageId: `example-${Date.now()}` });
  const body = JSON.stringify(message);
  console.log(`\nSending ${message.messageId} to A and B at the same moment…`);
  const answers = await Promise.all(instances.map((i) => deliver(i, body)));
  instances.forEach((i, n) => console.log(`  ${i.name} answered ${answers[n]!.status} ${answers[n]!.code}`));

  const retryTargets = instances.filter((_, n) => answers[n]!.status !== 200);
  for (const target of retryTargets) {
    console.log(`\nThe sender retries ${target.name}'s 503 (later, in real life; now, here)…`);
    const retry = await deliver(target, body);
    console.log(`  ${target.name} answered ${retry.status} ${retry.code}`);
    ok &&= retry.status === 200 && retry.code === 'duplicate';
  }

  const handledBy = instances.filter((i) => i.handled.includes(String(message.messageId)));
  const runs = instances.reduce((n, i) => n + i.handled.filter((id) => id === message.messageId).length, 0);
  ok &&= runs === 1 && answers.some((a) => a.status === 200 && a.code === 'ok');
  console.log(
    ok
      ? styleText(
          'bold',
          `\nHandled once, by instance ${handledBy[0]?.name}; the other instance answered without running the handler.`,
        )
      : styleText('red', `\nUnexpected: the handler ran ${runs} times.`),
  );

  if (args.serve) {
    const sample = JSON.stringify(fixture('track', { messageId: 'try-me-1' }));
    console.log(`\nServing until Ctrl+C. Try the same message on both instances (secret ${JSON.stringify(SECRET)}):`);
    for (const i of instances) {
      console.log(
        `  curl -i ${i.url} -H 'content-type: application/json' -H 'x-signature: ${sign(sample, SECRET)}' --data '${sample.replace(/'/g, "'\\''")}'`,
      );
    }
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
  }
} finally {
  await shutdown();
}
process.exitCode = ok ? 0 : 1;
