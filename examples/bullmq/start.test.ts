// The example runs as its README says: one command, a receiver killed after its 200s, a worker started
// later processes every acknowledged message once, exit 0.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('stores three messages, survives the receiver being killed, and a later worker processes each once', async () => {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/bullmq/start.ts'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  expect(out).toMatch(/Every acknowledged message processed once \(3 of 3\)/);
  expect(out.match(/\[worker\] processed order-/g)).toHaveLength(3);
  expect(out).toMatch(/again \(the sender's retry\): 200 ok {2}\(same job id: no second job\)/);
  expect(code).toBe(0);
}, 60_000);
