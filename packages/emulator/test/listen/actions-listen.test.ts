// `listen` recognises Webhooks (Actions) requests (User-Agent, PUT/PATCH, array body) and explains a
// batch's first-element-only signature. The requests come from Segment's own destination code
// (@segment/action-destinations 3.387.0) over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startListener, type Listener } from '../../src/index.js';
import { segmentOnBatch, segmentOnEvent } from '../../../../test/helpers/segment-actions-sender.js';

const SECRET = 'listen-actions-s3cret';
let listener: Listener;
beforeAll(async () => {
  listener = await startListener({ secret: SECRET, port: 0, host: '127.0.0.1' });
});
afterAll(() => listener.close());

const event = (n: number) => ({
  type: 'track',
  event: 'Order Completed',
  userId: `u${n}`,
  messageId: `m${n}`,
  properties: { n },
  timestamp: '2026-11-25T10:00:00.000Z',
});
const last = () => listener.log.records.at(-1)!;

describe('listen and Webhooks (Actions)', () => {
  it('a single PUT from Segment is verified and labelled as Actions', async () => {
    await segmentOnEvent(event(1), {
      sharedSecret: SECRET,
      subscription: {
        subscribe: 'type = "track"',
        partnerAction: 'send',
        mapping: { url: `${listener.url}/hook`, method: 'PUT', data: { '@path': '$.' } },
      },
    });
    const r = last();
    expect(r.method).toBe('PUT');
    expect(r.verdict.ok).toBe(true);
    expect(r.summary).toMatch(/^Webhooks \(Actions\) PUT · Order Completed · u1$/);
  });

  it('a batch from Segment: explains that X-Signature covers only the first element, and both ways out', async () => {
    const subscription = {
      subscribe: 'type = "track"',
      partnerAction: 'send',
      mapping: {
        url: `${listener.url}/hook`,
        method: 'POST',
        data: { '@path': '$.properties' },
        enable_batching: true,
        batch_size: 10,
      },
    };
    // listen answers 401 (the body as a whole does not verify): Segment's code reports it as an error.
    await segmentOnBatch([event(1), event(2), event(3)], { sharedSecret: SECRET, subscription }).catch((e: Error) =>
      expect(e.message).toBe('Unauthorized'),
    );
    expect(last().answeredStatus).toBe(401);
    const r = last();
    expect(r.type).toBe('actions');
    expect(r.summary).toBe('Webhooks (Actions) POST: a batch of 3, signed over its first element only');
    expect(r.verdict.ok).toBe(false);
    expect(r.verdict.message).toMatch(/batch of 3 elements: X-Signature matches only the first element/);
    expect(r.verdict.message).toMatch(/elements 2–3 are not covered/);
    expect(r.verdict.message).toMatch(/enable_batching off/);
    expect(r.verdict.message).toMatch(/insecureAcceptBatches/);
  });

  it('an unsigned batch says nothing in it is authenticated', async () => {
    await fetch(`${listener.url}/hook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Segment (Actions)' },
      body: '[{"a":1},{"a":2}]',
    });
    expect(last().verdict.message).toMatch(/batch of 2 elements without X-Signature/);
  });
});
