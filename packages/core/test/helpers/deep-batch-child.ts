// Run in a forked process or a worker thread: a receiver answers a batch with a 5,000-deep element,
// and the status is reported to the parent (process.send or parentPort).
import { parentPort } from 'node:worker_threads';
import { createReceiver } from '../../src/index.js';

const depth = 5_000;
const body = `[{"a":1},{"x":${'['.repeat(depth)}${']'.repeat(depth)}}]`;
const receiver = createReceiver({
  destination: 'actions',
  insecureSkipVerification: true,
  insecureAcceptBatches: 'including-unsigned',
  onPayload: () => {},
});
const answer = await receiver.handle({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  rawBody: new TextEncoder().encode(body),
});
const report = { status: answer.status, code: answer.code };
if (parentPort) parentPort.postMessage(report);
else process.send!(report, () => process.exit(0));
