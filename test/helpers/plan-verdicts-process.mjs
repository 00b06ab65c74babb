// One place a tracking plan is checked, run as a process of its own on the built packages (dist/): it
// reads a plan and signed message bodies, checks each body where `where` says, and prints
// `VERDICTS=<json>`, each body's violations as { path, keyword, message }. Plain JavaScript on dist/, so
// nothing maps `@hookgate/*` to the sources. A crash is the process's alone.
//   node plan-verdicts-process.mjs <where> <plan.json> <bodies.json> [redis port]
//   where: node (dist/node, rules compiled by Ajv) | neutral (dist/index.js, the interpreter) |
//          worker (a @hookgate/bullmq worker on real Redis, its job checked as it runs) |
//          module:<file.mjs> (the module `hookgate types` wrote, its validators precompiled)
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [where, planFile, bodiesFile, redisPort] = process.argv.slice(2);
const root = new URL('../../', import.meta.url);
const SECRET = 'verdicts-s3cret';
const plan = JSON.parse(readFileSync(planFile, 'utf8'));
/** @type {string[]} */
const bodies = JSON.parse(readFileSync(bodiesFile, 'utf8'));

const core = await import(
  new URL(where === 'neutral' ? 'packages/core/dist/index.js' : 'packages/core/dist/node/index.js', root).href
);
/** messageId → violations */
const seen = new Map();
const record = (msg, ctx) => {
  seen.set(
    msg.messageId,
    ctx.violations.map(({ path, keyword, message }) => ({ path, keyword, message })),
  );
};

async function post(receiver, body) {
  const answer = await receiver.handle({
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature': core.sign(body, SECRET) },
    rawBody: body,
  });
  if (answer.status !== 200) throw new Error(`answered ${answer.status}: ${JSON.stringify(answer.body)}`);
}

if (where === 'worker') {
  // The worker's package resolves @hookgate/core by its exports (the `node` condition: dist/node).
  const { createWorker, enqueueTo } = await import(new URL('packages/bullmq/dist/index.js', root).href);
  const { Queue } = await import('bullmq');
  const connection = { host: '127.0.0.1', port: Number(redisPort) };
  const queue = new Queue(`verdicts-${process.pid}`, { connection });
  const receiver = core.createReceiver({ secret: SECRET, enqueue: enqueueTo(queue) });
  let done;
  const all = new Promise((resolve) => (done = resolve));
  const worker = createWorker(queue.name, {
    connection,
    trackingPlan: plan,
    onMessage: (msg, ctx) => {
      record(msg, ctx);
      if (seen.size === bodies.length) done();
    },
  });
  worker.on('failed', (job, error) => console.error(`job ${job?.id} failed: ${error.message}`));
  for (const body of bodies) await post(receiver, body);
  await all;
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
} else {
  const trackingPlan = where.startsWith('module:')
    ? (await import(pathToFileURL(where.slice('module:'.length)).href)).trackingPlan
    : plan;
  const receiver = core.createReceiver({ secret: SECRET, dedupe: false, trackingPlan, onMessage: record });
  for (const body of bodies) await post(receiver, body);
}

const ids = bodies.map((b) => JSON.parse(b).messageId);
console.log(`VERDICTS=${JSON.stringify(ids.map((id) => seen.get(id) ?? null))}`);
