// Issue #30 item 5: a batch element's depth limit is an explicit bound, not the stack's: a 5,000-deep
// element gets the same answer (400 invalid_payload) in a forked process and in a worker thread with
// a much bigger stack (where JSON.stringify would not overflow).
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';

const child = fileURLToPath(new URL('./helpers/deep-batch-child.ts', import.meta.url));
const workerEntry = new URL('./helpers/deep-batch-worker.mjs', import.meta.url);

describe('a 5,000-deep batch element, on two stacks', () => {
  it('is 400 invalid_payload in a forked process and in a worker thread with a 256 MB stack', async () => {
    const forked = fork(child, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const [fromFork] = (await once(forked, 'message')) as [unknown];
    const worker = new Worker(workerEntry, { resourceLimits: { stackSizeMb: 256 } });
    const [fromWorker] = (await once(worker, 'message')) as [unknown];
    await worker.terminate();
    expect(fromFork).toEqual({ status: 400, code: 'invalid_payload' });
    expect(fromWorker).toEqual({ status: 400, code: 'invalid_payload' });
  }, 60_000);
});
