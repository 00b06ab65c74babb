// The example runs as its README says: one command, two instances, one Redis, handled once, exit 0.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('starts Redis and two instances, sends one message to both at once, and it is handled once', async () => {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/redis-instances/start.ts'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  expect(out).toMatch(/Handled once, by instance [AB]/);
  expect(out.match(/\] handled example-/g)).toHaveLength(1);
  expect(out).toMatch(/answered 200 ok/);
  expect(code).toBe(0);
});
