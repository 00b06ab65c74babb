import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Analytics, LIBRARY } from '../src/index.js';
import { delay, startCaptureServer, type CaptureServer } from './helpers/capture-server.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let server: CaptureServer;
let clients: Analytics[] = [];
const client = (options: ConstructorParameters<typeof Analytics>[1] = {}) => {
  const c = new Analytics('wk_test', { endpoint: server.url, ...options });
  clients.push(c);
  return c;
};

beforeEach(async () => {
  server = await startCaptureServer();
});
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  clients = [];
  await server.close();
});

describe('batching', () => {
  it('sends 20 calls as exactly one batch, without waiting for the timer', async () => {
    const analytics = client({ flushAfter: 60_000 });
    for (let i = 0; i < 20; i++) analytics.track({ userId: `u${i}`, event: 'Clicked', properties: { i } });
    await server.waitForRequests(1);
    await delay(100);
    expect(server.requests).toHaveLength(1);
    const batch = server.requests[0]!.body.batch;
    expect(batch).toHaveLength(20);
    expect(batch.map((m: any) => m.properties.i)).toEqual([...Array(20).keys()]);
  });

  it('calls return at once: no request is made per call', async () => {
    const analytics = client({ flushAfter: 60_000 });
    for (let i = 0; i < 19; i++) analytics.identify({ userId: `u${i}` });
    await delay(150);
    expect(server.requests).toHaveLength(0);
  });

  it('sends 19 calls as one batch once flushAfter has passed', async () => {
    const analytics = client({ flushAfter: 300 });
    const start = Date.now();
    for (let i = 0; i < 19; i++) analytics.track({ userId: `u${i}`, event: 'Viewed' });
    await delay(150);
    expect(server.requests).toHaveLength(0);
    await server.waitForRequests(1, 2000);
    expect(server.requests[0]!.at - start).toBeGreaterThanOrEqual(280);
    await delay(100);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.body.batch).toHaveLength(19);
  });

  it('flushAt: 1 turns batching off: one request per call', async () => {
    const analytics = client({ flushAt: 1, flushAfter: 60_000 });
    for (let i = 0; i < 5; i++) analytics.track({ userId: 'u1', event: `E${i}` });
    await server.waitForRequests(5);
    expect(server.requests.map((r) => r.body.batch.length)).toEqual([1, 1, 1, 1, 1]);
    expect(server.requests.map((r) => r.body.batch[0].event).sort()).toEqual(['E0', 'E1', 'E2', 'E3', 'E4']);
  });

  it('accepts size as an alias of flushAt', async () => {
    const analytics = client({ size: 3, flushAfter: 60_000 });
    for (let i = 0; i < 6; i++) analytics.track({ userId: 'u1', event: `E${i}` });
    await server.waitForRequests(2);
    expect(server.requests.map((r) => r.body.batch.length)).toEqual([3, 3]);
  });

  it('flush() sends what is queued and resolves after the server answered', async () => {
    const analytics = client({ flushAfter: 60_000 });
    analytics.track({ userId: 'u1', event: 'A' });
    analytics.track({ userId: 'u1', event: 'B' });
    await analytics.flush();
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.answered).toBe(200);
    expect(server.requests[0]!.body.batch.map((m: any) => m.event)).toEqual(['A', 'B']);
    await analytics.flush(); // nothing queued: resolves at once, sends nothing
    expect(server.requests).toHaveLength(1);
  });
});

describe('wire format', () => {
  it('posts { batch, sentAt, context.library } to <endpoint>/v1/batch with Basic auth', async () => {
    const analytics = client({ flushAfter: 60_000 });
    const before = Date.now();
    analytics.identify({ userId: 'u1', traits: { email: 'ada@example.com' } });
    await analytics.flush();
    const [req] = server.requests;
    expect(req!.method).toBe('POST');
    expect(req!.url).toBe('/v1/batch');
    expect(req!.headers.authorization).toBe(`Basic ${Buffer.from('wk_test:').toString('base64')}`);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(Number(req!.headers['content-length'])).toBe(req!.raw.length);
    expect(Object.keys(req!.body)).toEqual(['batch', 'sentAt', 'context']);
    expect(req!.body.sentAt).toMatch(ISO_MS);
    expect(Date.parse(req!.body.sentAt)).toBeGreaterThanOrEqual(before - 1);
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(req!.body.context).toEqual({ library: { name: '@hookgate/client', version: pkg.version } });
    expect(LIBRARY.version).toBe(pkg.version);
    const [msg] = req!.body.batch;
    expect(msg).toEqual({
      type: 'identify',
      messageId: expect.stringMatching(UUID),
      timestamp: expect.stringMatching(ISO_MS),
      userId: 'u1',
      traits: { email: 'ada@example.com' },
    });
  });

  it('keeps a path prefix of the endpoint', async () => {
    const analytics = new Analytics('wk', { endpoint: `${server.url}/intake/`, flushAt: 1 });
    clients.push(analytics);
    analytics.track({ userId: 'u1', event: 'E' });
    await analytics.flush();
    expect(server.requests[0]!.url).toBe('/intake/v1/batch');
  });

  it('sends every call type with its fields, and returns each messageId', async () => {
    const analytics = client({ flushAfter: 60_000 });
    const common = { context: { ip: '10.0.0.1' }, integrations: { All: false, Webhooks: true } };
    const ids = [
      analytics.identify({ userId: 'u1', traits: { plan: 'pro' }, ...common }),
      analytics.track({ anonymousId: 'a1', event: 'Signed Up', properties: { n: 1 }, ...common }),
      analytics.page({
        userId: 'u1',
        name: 'Pricing',
        category: 'Docs',
        properties: { url: 'https://x.test/p' },
        ...common,
      }),
      analytics.screen({ userId: 'u1', name: 'Settings', ...common }),
      analytics.group({ userId: 'u1', groupId: 'acme', traits: { size: 3 }, ...common }),
      analytics.alias({ userId: 'u1', previousId: 'a1', ...common }),
    ];
    await analytics.flush();
    const batch = server.delivered();
    expect(batch.map((m) => m.type)).toEqual(['identify', 'track', 'page', 'screen', 'group', 'alias']);
    expect(batch.map((m) => m.messageId)).toEqual(ids);
    expect(batch[1]).toMatchObject({ anonymousId: 'a1', event: 'Signed Up', properties: { n: 1 } });
    expect(batch[2]).toMatchObject({ name: 'Pricing', category: 'Docs', properties: { url: 'https://x.test/p' } });
    expect(batch[4]).toMatchObject({ groupId: 'acme', traits: { size: 3 } });
    expect(batch[5]).toMatchObject({ userId: 'u1', previousId: 'a1' });
    for (const m of batch) expect(m).toMatchObject(common);
  });

  it("keeps the caller's messageId and normalizes the caller's timestamp to UTC with ms", async () => {
    const analytics = client({ flushAfter: 60_000 });
    analytics.track({ userId: 'u1', event: 'A', messageId: 'my-id', timestamp: '2009-11-10T23:00:00+0000' });
    analytics.track({ userId: 'u1', event: 'B', timestamp: new Date(Date.UTC(2020, 0, 2, 3, 4, 5, 6)) });
    analytics.track({ userId: 'u1', event: 'C', timestamp: '2021-06-01T12:00:00+02:00' });
    await analytics.flush();
    const [a, b, c] = server.delivered();
    expect(a).toMatchObject({ messageId: 'my-id', timestamp: '2009-11-10T23:00:00.000Z' });
    expect(b.timestamp).toBe('2020-01-02T03:04:05.006Z');
    expect(c.timestamp).toBe('2021-06-01T10:00:00.000Z');
  });

  it('merges the context option under each call context', async () => {
    const analytics = client({ flushAfter: 60_000, context: { app: { name: 'shop' }, locale: 'en-GB' } });
    analytics.track({ userId: 'u1', event: 'A' });
    analytics.track({ userId: 'u1', event: 'B', context: { locale: 'fr-FR', ip: '10.0.0.2' } });
    await analytics.flush();
    const [a, b] = server.delivered();
    expect(a.context).toEqual({ app: { name: 'shop' }, locale: 'en-GB' });
    expect(b.context).toEqual({ app: { name: 'shop' }, locale: 'fr-FR', ip: '10.0.0.2' });
  });

  it('reports each accepted batch to onFlush', async () => {
    const reports: any[] = [];
    const analytics = client({ flushAt: 2, onFlush: (r) => reports.push(r) });
    const ids = [analytics.track({ userId: 'u1', event: 'A' }), analytics.track({ userId: 'u1', event: 'B' })];
    await analytics.flush();
    expect(reports).toEqual([
      {
        count: 2,
        messageIds: ids,
        bytes: server.requests[0]!.raw.length,
        status: 200,
        attempts: 1,
        durationMs: expect.any(Number),
      },
    ]);
  });
});
