// `hookgate serve --actions FILE.json`, run as a real process: the file's subscriptions are sent as
// Webhooks (Actions) requests to a real receiver, and a bad file is refused with the field named.
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCaptureReceiver, type CaptureReceiver } from '../helpers/capture-receiver.js';
import { startCliFromSources } from '../helpers/local-http.js';

let receiver: CaptureReceiver;
const dir = mkdtempSync(path.join(tmpdir(), 'hookgate-actions-'));
beforeAll(async () => {
  receiver = await startCaptureReceiver();
});
afterAll(async () => {
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, value: unknown): string {
  const p = path.join(dir, name);
  writeFileSync(p, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return p;
}

describe('hookgate serve --actions', () => {
  it('sends the subscriptions of the file (a list as Segment exports it), signed with --secret', async () => {
    const subscriptions = file('subs.json', [
      {
        subscribe: 'type = "track" and event = "Order Completed"',
        partnerAction: 'send',
        enabled: true,
        mapping: { url: `${receiver.url}/orders`, method: 'PUT', data: { id: { '@path': '$.properties.order_id' } } },
      },
      {
        subscribe: 'type = "identify"',
        partnerAction: 'send',
        enabled: true,
        mapping: {
          url: `${receiver.url}/people`,
          method: 'PATCH',
          data: { '@path': '$.traits' },
          enable_batching: true,
          batch_size: 2,
        },
      },
    ]);
    const serve = startCliFromSources([
      'serve',
      '--port',
      '0',
      '--actions',
      subscriptions,
      '--secret',
      'cli-s3cret',
      '--drain-ms',
      '2000',
    ]);
    try {
      const [, url] = (await serve.waitFor(/intake listening on (http:\/\/\S+)/)) as unknown as [string, string];
      expect(serve.out()).toMatch(/actions\s+2 subscription\(s\)/);
      expect(serve.out()).toMatch(/endpoints\s+none \(Webhooks \(Actions\) only\)/);
      const post = (p: string, body: unknown) =>
        fetch(`${url}${p}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Basic ${Buffer.from('hookgate-dev:').toString('base64')}`,
          },
          body: JSON.stringify(body),
        });
      expect(
        (await post('/v1/track', { userId: 'u1', event: 'Order Completed', properties: { order_id: 'o-1' } })).status,
      ).toBe(200);
      expect((await post('/v1/identify', { userId: 'u1', traits: { plan: 'pro' } })).status).toBe(200);
      expect((await post('/v1/identify', { userId: 'u2', traits: { plan: 'free' } })).status).toBe(200);
      const until = Date.now() + 20_000;
      while (receiver.received.length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
      const orders = receiver.received.find((r) => r.url === '/orders')!;
      expect(orders.method).toBe('PUT');
      expect(orders.text).toBe('{"id":"o-1"}');
      expect(orders.headers['user-agent']).toBe('Segment (Actions)');
      expect(orders.headers['x-signature']).toBe(createHmac('sha1', 'cli-s3cret').update(orders.text).digest('hex'));
      const people = receiver.received.find((r) => r.url === '/people')!;
      expect(people.method).toBe('PATCH');
      expect(people.text).toBe('[{"plan":"pro"},{"plan":"free"}]');
      expect(people.headers['x-signature']).toBe(
        createHmac('sha1', 'cli-s3cret').update('{"plan":"pro"}').digest('hex'),
      );
    } finally {
      serve.child.kill('SIGINT');
      await serve.exited;
    }
    expect(serve.out()).not.toContain('cli-s3cret');
  }, 60_000);

  it('with --json, an event waiting in its batch is a filtered line marked batched, then the batch goes out', async () => {
    const subscriptions = file('batched.json', [
      {
        subscribe: 'type = "identify"',
        partnerAction: 'send',
        enabled: true,
        mapping: {
          url: `${receiver.url}/batched`,
          method: 'PATCH',
          data: { '@path': '$.traits' },
          enable_batching: true,
          batch_size: 2,
        },
      },
    ]);
    const serve = startCliFromSources([
      'serve',
      '--port',
      '0',
      '--json',
      '--actions',
      subscriptions,
      '--drain-ms',
      '2000',
    ]);
    try {
      const [, url] = (await serve.waitFor(/"event":"listening","url":"(http:\/\/[^"]+)"/)) as unknown as [
        string,
        string,
      ];
      const post = (body: unknown) =>
        fetch(`${url}/v1/identify`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Basic ${Buffer.from('hookgate-dev:').toString('base64')}`,
          },
          body: JSON.stringify(body),
        });
      expect((await post({ userId: 'b1', traits: { plan: 'pro' } })).status).toBe(200);
      await serve.waitFor(/"event":"filtered"/);
      const filtered = serve
        .out()
        .split('\n')
        .filter((l) => l.includes('"event":"filtered"'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(filtered).toHaveLength(1);
      expect(filtered[0]).toMatchObject({ type: 'identify', batched: true });
      expect((await post({ userId: 'b2', traits: { plan: 'free' } })).status).toBe(200);
      const until = Date.now() + 20_000;
      while (!receiver.received.some((r) => r.url === '/batched') && Date.now() < until)
        await new Promise((r) => setTimeout(r, 25));
      expect(receiver.received.find((r) => r.url === '/batched')?.text).toBe('[{"plan":"pro"},{"plan":"free"}]');
    } finally {
      serve.child.kill('SIGINT');
      await serve.exited;
    }
  }, 60_000);

  it('refuses a bad file, naming the field and the fix', async () => {
    const bad = file('bad.json', {
      subscriptions: [
        { subscribe: 'type = "track"', partnerAction: 'send', mapping: { url: `${receiver.url}/x`, method: 'GET' } },
      ],
    });
    const run = startCliFromSources(['serve', '--port', '0', '--actions', bad]);
    expect(await run.exited).toBe(2);
    expect(run.err()).toMatch(/--actions .*bad\.json: subscriptions\[0\]\.mapping\.method.*POST", "PUT" or "PATCH"/);
    const notJson = startCliFromSources(['serve', '--port', '0', '--actions', file('not.json', '{ nope')]);
    expect(await notJson.exited).toBe(2);
    expect(notJson.err()).toMatch(/--actions .*not\.json: not JSON/);
  }, 60_000);
});
