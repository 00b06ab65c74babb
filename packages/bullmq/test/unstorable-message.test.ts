// A signed message that BullMQ cannot write out (JSON.stringify recurses: ~10,000 levels overflow the
// stack) is answered 422 `message_unstorable`, not 503 `queue_unavailable`, which the sender would retry forever.
import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { createReceiver, toNodeListener } from '@hookgate/core';
import { startHttpServer } from '../../../test/helpers/servers.js';
import { enqueueTo } from '../src/index.js';
import { SECRET, post, trackMessage } from './support/processes.js';
import { redisSuite } from './support/redis-suite.js';

const suite = redisSuite();

/** A track message whose properties nest `depth` objects deep, as its JSON text (built as text: no recursion). */
function deepTrackBody(messageId: string, depth: number): string {
  const body = JSON.stringify({ ...trackMessage(messageId), properties: { deep: 0 } });
  return body.replace('"deep":0', `"deep":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
}

describe('enqueueTo with a message too deep to store', () => {
  it('answers 422 message_unstorable on every try, and stores no job', async () => {
    const queue = new Queue(`unstorable-${Date.now()}`, { connection: { host: '127.0.0.1', port: suite.redis.port } });
    suite.closers.push(() => queue.close());
    const errors: unknown[] = [];
    const server = await startHttpServer(
      toNodeListener(createReceiver({ secret: SECRET, enqueue: enqueueTo(queue), onError: (e) => errors.push(e) })),
    );
    suite.closers.push(() => server.close());
    const body = deepTrackBody('deep-1', 10_000);
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await post(`${server.url}/`, body, 20_000);
      expect(answer).toMatchObject({ status: 422, code: 'message_unstorable' });
    }
    expect(errors[0]).toBeInstanceOf(RangeError);
    expect(await queue.getJobCounts('waiting', 'delayed', 'active')).toEqual({ waiting: 0, delayed: 0, active: 0 });
    // A shallow message still goes through the same receiver.
    expect(await post(`${server.url}/`, deepTrackBody('shallow-1', 10), 20_000)).toMatchObject({ status: 200 });
  }, 60_000);
});
