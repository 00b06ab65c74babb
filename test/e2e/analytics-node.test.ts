// A real client, unchanged: @segment/analytics-node pointed at the emulator's intake with its `host`
// option. Every call type must reach a receiver built with @hookgate/core, verified, in the seed's shapes.
import { Analytics } from '@segment/analytics-node';
import { createReceiver, messageIssues, toNodeListener, type WebhookMessage } from '@hookgate/core';
import { createEmulator, type Emulator, type IntakeServer } from '@hookgate/emulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../helpers/servers.js';

const SECRET = 'e2e-secret';
const WRITE_KEY = 'wk_analytics_node';

let receiver: RunningServer;
let seen: Array<{ message: WebhookMessage; form: string; userAgent: string | undefined }>;
let emulator: Emulator;
let intake: IntakeServer;
let requests: Array<{ path: string; authorization: string | undefined; body: Record<string, unknown> }>;

beforeEach(async () => {
  seen = [];
  requests = [];
  const rx = createReceiver({
    secret: SECRET,
    onMessage: (message, ctx) =>
      void seen.push({ message, form: ctx.verification.form, userAgent: ctx.header('user-agent') }),
  });
  receiver = await startHttpServer(toNodeListener(rx));
  emulator = createEmulator({
    sources: [
      {
        writeKey: WRITE_KEY,
        webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/webhooks` }], sharedSecret: SECRET },
      },
    ],
  });
  intake = await emulator.listen({ port: 0, host: '127.0.0.1' });
  // Record what the client really sends, without changing it: a tap on the intake's server.
  intake.server.prependListener('request', (req) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        path: req.url ?? '',
        authorization: req.headers.authorization,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      });
    });
  });
});

afterEach(async () => {
  await intake.close();
  await emulator.close();
  await receiver.close();
});

describe('@segment/analytics-node against the intake', () => {
  it('sends identify, track, page, screen, group and alias; each reaches the receiver verified, in the seed shape', async () => {
    const analytics = new Analytics({
      writeKey: WRITE_KEY,
      host: intake.url,
      flushAt: 6,
      flushInterval: 10_000,
      maxRetries: 0,
    });
    const errors: unknown[] = [];
    analytics.on('error', (e) => errors.push(e));
    analytics.identify({
      userId: 'user_1001',
      traits: { email: 'ada@example.com', name: 'Ada Lovelace', plan: 'premium', logins: 5 },
    });
    analytics.track({
      userId: 'user_1001',
      event: 'Order Completed',
      properties: { orderId: 'ord_77', revenue: 42.5, note: 'café ☕' },
    });
    analytics.page({
      userId: 'user_1001',
      name: 'Pricing',
      properties: {
        path: '/pricing',
        title: 'Pricing',
        url: 'https://app.example.com/pricing',
        referrer: 'https://www.example.com/',
      },
    });
    analytics.screen({ userId: 'user_1001', name: 'Home' });
    analytics.group({ userId: 'user_1001', groupId: 'acme_inc', traits: { name: 'Acme Inc', employees: 120 } });
    analytics.alias({ previousId: 'anon_5e1f', userId: 'user_1001' });
    await analytics.closeAndFlush({ timeout: 10_000 });
    expect(errors).toEqual([]);

    // The client's own request shape, accepted unchanged: one POST /v1/batch, Basic auth, { batch, writeKey, sentAt }.
    expect(requests).toHaveLength(1);
    expect(requests[0]!.path).toBe('/v1/batch');
    expect(requests[0]!.authorization).toBe(`Basic ${Buffer.from(`${WRITE_KEY}:`).toString('base64')}`);
    expect(Object.keys(requests[0]!.body).sort()).toEqual(['batch', 'sentAt', 'writeKey']);

    await emulator.drain();
    expect(emulator.deliveries.map((d) => d.state)).toEqual(Array(6).fill('delivered'));
    const byType = Object.fromEntries(seen.map((s) => [s.message.type, s]));
    expect(Object.keys(byType).sort()).toEqual(['alias', 'group', 'identify', 'page', 'screen', 'track']);
    for (const s of seen) {
      expect(s.form).toBe('raw'); // verified over the exact bytes sent
      expect(s.userAgent).toBe('Segment.io/1.0');
      expect(messageIssues(s.message, { strictTimestamps: true })).toEqual([]);
      expect(s.message).toMatchObject({ version: 1 });
      expect(s.message.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    expect(byType.identify!.message).toMatchObject({
      userId: 'user_1001',
      traits: { email: 'ada@example.com', plan: 'premium', logins: 5 },
    });
    expect(byType.track!.message).toMatchObject({
      userId: 'user_1001',
      event: 'Order Completed',
      properties: { revenue: 42.5, note: 'café ☕' },
    });
    expect(byType.page!.message).toMatchObject({
      userId: 'user_1001',
      properties: { path: '/pricing', url: 'https://app.example.com/pricing' },
    });
    expect(byType.screen!.message).toMatchObject({ userId: 'user_1001', name: 'Home' });
    expect(byType.group!.message).toMatchObject({
      userId: 'user_1001',
      groupId: 'acme_inc',
      traits: { employees: 120 },
    });
    const alias = byType.alias!.message as Record<string, unknown>;
    expect(alias).toMatchObject({ type: 'alias', 'Previous ID': 'anon_5e1f', 'User ID': 'user_1001' });
    expect(alias).not.toHaveProperty('userId');
    // The client's context (library name) came through the batch.
    expect((byType.track!.message as { context?: unknown }).context).toMatchObject({
      library: { name: '@segment/analytics-node' },
    });
  });

  it('accepts a batch posted with only the body writeKey (older clients)', async () => {
    const res = await fetch(`${intake.url}/v1/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        writeKey: WRITE_KEY,
        sentAt: new Date().toISOString(),
        batch: [
          { type: 'track', userId: 'user_7', event: 'Legacy Event', timestamp: '2009-11-10T23:00:00+0000' },
          { type: 'alias', userId: 'user_7', previousId: 'anon_7' },
        ],
      }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
    await emulator.drain();
    expect(seen.map((s) => s.message)).toEqual([
      { version: 1, type: 'track', userId: 'user_7', timestamp: '2009-11-10T23:00:00.000Z', event: 'Legacy Event' },
      expect.objectContaining({ type: 'alias', 'Previous ID': 'anon_7', 'User ID': 'user_7' }),
    ]);
  });
});
