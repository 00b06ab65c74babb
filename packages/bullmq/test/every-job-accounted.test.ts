// Every job accounted for, as every message is at a receiver (test/adapters/every-message-accounted.test.ts):
// a job no handler runs (no handler for its type, or `on.track` keyed by event name without its event)
// completes with nothing run; `onViolation` runs for every job whose message breaks the plan, whether or
// not a handler exists for it. A real redis-server and BullMQ; each message reaches the queue through an
// enqueueing receiver over real HTTP, signed with core's `sign`.
import { Queue } from 'bullmq';
import { beforeAll, describe, expect, it } from 'vitest';
import { createReceiver, toNodeListener } from '@hookgate/core';
import { startHttpServer } from '../../../test/helpers/servers.js';
import { EVENTS, MESSAGES, PLAN, ranRecorder, type MessageName } from '../../../test/helpers/accounting-cases.js';
import { createWorker, enqueueTo, type HandoffJobData } from '../src/index.js';
import { jobIdOf } from '../src/job-id.js';
import { SECRET, post } from './support/processes.js';
import { redisSuite } from './support/redis-suite.js';
import { compileTrackingPlan } from '@hookgate/plans';

const plan = compileTrackingPlan(PLAN);

/** What ran for each message, by its messageId: `handler` or `onViolation`. */
const { ran, record } = ranRecorder();

const keyed = { track: { 'Order Completed': record('handler') } };
const SETUPS = {
  'no plan, unkeyed': { on: { track: record('handler') } },
  'no plan, no handler': { on: { identify: record('handler') } },
  'plan, unkeyed': { trackingPlan: plan, on: { track: record('handler') } },
  'plan, keyed': { trackingPlan: plan, on: keyed },
  'plan, no handler': { trackingPlan: plan, on: { identify: record('handler') } },
  'plan, unkeyed, onViolation': {
    trackingPlan: plan,
    on: { track: record('handler') },
    onViolation: record('onViolation'),
  },
  'plan, keyed, onViolation': { trackingPlan: plan, on: keyed, onViolation: record('onViolation') },
  'plan, no handler, onViolation': {
    trackingPlan: plan,
    on: { identify: record('handler') },
    onViolation: record('onViolation'),
  },
  'actions, plan, keyed, onViolation': {
    destination: 'actions',
    trackingPlan: plan,
    on: keyed,
    onViolation: record('onViolation'),
  },
  'actions, plan, no handler, onViolation': {
    destination: 'actions',
    trackingPlan: plan,
    on: { identify: record('handler') },
    onViolation: record('onViolation'),
  },
};
type SetupName = keyof typeof SETUPS;

type Outcome = 'handler' | 'onViolation' | 'nothing';
// prettier-ignore
const TABLE: [SetupName, MessageName, Outcome][] = [
  ['no plan, unkeyed', 'planned', 'handler'],
  ['no plan, unkeyed', 'violating group', 'nothing'],
  ['no plan, no handler', 'planned', 'nothing'],
  ['no plan, no handler', 'violating', 'nothing'],
  ['plan, unkeyed', 'planned', 'handler'],
  ['plan, unkeyed', 'unplanned', 'handler'],
  ['plan, unkeyed', 'violating', 'handler'],
  ['plan, unkeyed', 'violating group', 'nothing'],
  ['plan, keyed', 'planned', 'handler'],
  ['plan, keyed', 'planned, not keyed', 'nothing'],
  ['plan, keyed', 'unplanned', 'nothing'],
  ['plan, keyed', 'violating', 'handler'],
  ['plan, no handler', 'violating', 'nothing'],
  ['plan, unkeyed, onViolation', 'unplanned', 'handler'],
  ['plan, unkeyed, onViolation', 'violating', 'onViolation'],
  ['plan, unkeyed, onViolation', 'violating group', 'onViolation'],
  ['plan, keyed, onViolation', 'planned', 'handler'],
  ['plan, keyed, onViolation', 'planned, not keyed', 'nothing'],
  ['plan, keyed, onViolation', 'unplanned', 'nothing'],
  ['plan, keyed, onViolation', 'violating', 'onViolation'],
  ['plan, keyed, onViolation', 'violating group', 'onViolation'],
  ['plan, no handler, onViolation', 'planned', 'nothing'],
  ['plan, no handler, onViolation', 'violating', 'onViolation'],
  ['plan, no handler, onViolation', 'violating group', 'onViolation'],
  ['actions, plan, keyed, onViolation', 'planned', 'handler'],
  ['actions, plan, keyed, onViolation', 'planned, not keyed', 'nothing'],
  ['actions, plan, keyed, onViolation', 'unplanned', 'nothing'],
  ['actions, plan, keyed, onViolation', 'violating group', 'onViolation'],
  ['actions, plan, no handler, onViolation', 'planned', 'nothing'],
  ['actions, plan, no handler, onViolation', 'violating', 'onViolation'],
];

const suite = redisSuite();
/** Per setup: the URL of its enqueueing receiver and its queue (its worker runs the table's handlers). */
const served = new Map<SetupName, { url: string; queue: Queue<HandoffJobData> }>();

beforeAll(async () => {
  const connection = { host: '127.0.0.1', port: suite.redis.port };
  for (const [i, [name, options]] of Object.entries(SETUPS).entries()) {
    const queue = new Queue<HandoffJobData>(`accounted-${process.pid}-${i}`, { connection });
    const destination = 'destination' in options ? options.destination : 'classic';
    const receiver = createReceiver({ destination, secret: SECRET, enqueue: enqueueTo(queue) } as never);
    const server = await startHttpServer(toNodeListener(receiver));
    const worker = createWorker(queue.name, { connection, ...options } as never);
    suite.closers.push(
      () => queue.close(),
      () => server.close(),
      () => worker.close(),
    );
    served.set(name as SetupName, { url: server.url, queue });
  }
});

describe('every job accounted for (createWorker)', () => {
  it.each(TABLE)('%s, %s message → %s', async (setup, name, outcome) => {
    const { url, queue } = served.get(setup)!;
    const message = setup.startsWith('actions') ? EVENTS[name]!() : MESSAGES[name]();
    const messageId = String(message.messageId);
    expect(await post(url, JSON.stringify(message))).toMatchObject({ status: 200, code: 'ok' });
    const job = await queue.getJob(jobIdOf(`id:${messageId}`));
    expect(job, 'the receiver stored the job').toBeDefined();
    // Completed (not failed): a job nothing runs still completes.
    await expect.poll(() => job!.getState(), { timeout: 10_000 }).toBe('completed');
    expect(ran.get(messageId)).toBe(outcome === 'nothing' ? undefined : outcome);
  });
});
