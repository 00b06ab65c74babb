// Request bodies in the exact shapes Segment's official libraries send (Python, Ruby, Go, Java,
// Node; see test/fixtures/official-clients/README.md for the public source each follows), posted byte for
// byte over real HTTP to a real intake, delivered to a real receiver: every call must arrive,
// verified, in the seed's shapes (userId a string, timestamp ISO 8601 UTC with milliseconds).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { createReceiver, messageIssues, toNodeListener, type WebhookMessage } from '@hookgate/core';
import { UTC_MILLIS_TIMESTAMP } from '@hookgate/core/internal';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';
import { createEmulator, type Emulator } from '../../src/index.js';
import { listenIntake, type IntakeServer } from '../../src/intake/index.js';

const SECRET = 'official-clients-secret';
const KEY = 'wk_official';
const basic = `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`;
const fixture = (name: string) => readFileSync(new URL(`../fixtures/official-clients/${name}`, import.meta.url));

let receiver: RunningServer;
let seen: Array<{ message: WebhookMessage; form: string }>;
let emulator: Emulator;
let intake: IntakeServer;

beforeEach(async () => {
  seen = [];
  const rx = createReceiver({
    secret: SECRET,
    onMessage: (message, ctx) => void seen.push({ message, form: ctx.verification.form }),
  });
  receiver = await startHttpServer(toNodeListener(rx));
  emulator = createEmulator({
    sources: [
      {
        writeKey: KEY,
        webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/webhooks` }], sharedSecret: SECRET },
      },
    ],
  });
  intake = await listenIntake(emulator);
});

afterEach(async () => {
  await intake.close();
  await emulator.close();
  await receiver.close();
});

/** Posts exactly these bytes with node:http (no re-encoding), with a Content-Length as the libraries send. */
function postBytes(
  path: string,
  bytes: Buffer,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${intake.url}${path}`,
      { method: 'POST', headers: { ...headers, 'content-length': String(bytes.length) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(bytes);
  });
}

interface Case {
  name: string;
  file: string;
  path: string;
  headers: Record<string, string>;
  gzip?: boolean;
  /** What each call must become, by type, in the seed's shapes. */
  expected: Array<Record<string, unknown>>;
}

const lib = (name: string, version: string) => ({ library: { name, version } });

const CASES: Case[] = [
  {
    name: 'analytics-python (nulls, +00:00 and +05:30 offsets, microsecond sentAt, numeric groupId, key in body and Basic)',
    file: 'python-analytics-python.json',
    path: '/v1/batch',
    headers: { 'content-type': 'application/json', 'user-agent': 'analytics-python/2.3.0', authorization: basic },
    expected: [
      {
        type: 'identify',
        userId: 'user_1001',
        timestamp: '2026-11-24T10:00:00.123Z',
        traits: { email: 'ada@example.com', name: 'Ada Lovelace', plan: null },
        context: { ip: '203.0.113.7', ...lib('analytics-python', '2.3.0') },
      },
      {
        type: 'track',
        userId: 'user_1001',
        timestamp: '2026-11-24T10:00:00.456Z',
        event: 'Order Completed',
        properties: { orderId: 'ord_77', revenue: 42.5, note: 'café ☕' },
      },
      {
        type: 'page',
        userId: 'user_1001',
        timestamp: '2026-11-24T10:00:02.000Z',
        properties: { path: '/pricing', url: 'https://app.example.com/pricing' },
      },
      { type: 'screen', userId: 'user_1001', timestamp: '2026-11-24T10:00:03.000Z', name: 'Home' },
      {
        type: 'group',
        userId: 'user_1001',
        timestamp: '2026-11-24T10:00:04.000Z',
        groupId: '42',
        traits: { name: 'Acme Inc' },
      },
      { type: 'alias', 'Previous ID': 'anon_5e1f', 'User ID': 'user_1001', timestamp: '2026-11-24T10:00:05.000Z' },
    ],
  },
  {
    name: 'analytics-python with gzip=True (Content-Encoding: gzip)',
    file: 'python-analytics-python.json',
    path: '/v1/batch',
    gzip: true,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'analytics-python/2.3.0',
      authorization: basic,
      'content-encoding': 'gzip',
    },
    expected: [
      { type: 'identify', userId: 'user_1001', timestamp: '2026-11-24T10:00:00.123Z' },
      { type: 'track', userId: 'user_1001', timestamp: '2026-11-24T10:00:00.456Z', event: 'Order Completed' },
      { type: 'page', userId: 'user_1001', timestamp: '2026-11-24T10:00:02.000Z' },
      { type: 'screen', userId: 'user_1001', name: 'Home' },
      { type: 'group', userId: 'user_1001', groupId: '42' },
      { type: 'alias', 'Previous ID': 'anon_5e1f', 'User ID': 'user_1001' },
    ],
  },
  {
    name: 'analytics-ruby (/v1/import, numeric userId, null anonymousId/integrations/options, +01:00 offsets)',
    file: 'ruby-analytics-ruby.json',
    path: '/v1/import',
    headers: { accept: 'application/json', 'content-type': 'application/json', authorization: basic },
    expected: [
      {
        type: 'identify',
        userId: '1001',
        timestamp: '2026-11-24T10:00:00.123Z',
        traits: { email: 'ada@example.com', signed_up: '2026-01-02T03:04:05+00:00' },
        context: lib('analytics-ruby', '2.4.0'),
      },
      {
        type: 'track',
        userId: '1001',
        timestamp: '2026-11-24T10:00:00.456Z',
        event: 'Order Completed',
        properties: { revenue: 42.5, note: 'café ☕', url: 'https://example.com/a/b' },
      },
      { type: 'page', userId: '1001', timestamp: '2026-11-24T10:00:02.000Z', properties: { path: '/pricing' } },
      { type: 'screen', userId: '1001', timestamp: '2026-11-24T10:00:03.000Z', name: 'Home' },
      { type: 'group', userId: '1001', timestamp: '2026-11-24T10:00:04.000Z', groupId: '42' },
      { type: 'alias', 'Previous ID': 'anon_5e1f', 'User ID': '1001', timestamp: '2026-11-24T10:00:05.000Z' },
    ],
  },
  {
    name: 'analytics-go v3 (batch-level messageId/sentAt/context, RFC 3339 nanoseconds, \\u003c escapes)',
    file: 'go-analytics-go-v3.json',
    path: '/v1/batch',
    headers: {
      'user-agent': 'analytics-go (version: 3.3.0)',
      'content-type': 'application/json',
      authorization: basic,
    },
    expected: [
      {
        type: 'identify',
        userId: 'user_1001',
        timestamp: '2026-11-24T10:00:00.123Z',
        context: lib('analytics-go', '3.3.0'),
      },
      {
        type: 'track',
        userId: 'user_1001',
        timestamp: '2026-11-24T10:00:00.500Z',
        event: 'Order Completed',
        properties: { revenue: 42.5, note: '<b>café</b> & ☕' },
        context: lib('analytics-go', '3.3.0'),
      },
      { type: 'page', userId: 'user_1001', timestamp: '2026-11-24T10:00:02.000Z', properties: { path: '/pricing' } },
      { type: 'screen', userId: 'user_1001', timestamp: '2026-11-24T10:00:03.000Z', name: 'Home' },
      { type: 'group', userId: 'user_1001', timestamp: '2026-11-24T10:00:04.000Z', groupId: 'acme_inc' },
      { type: 'alias', 'Previous ID': 'anon_5e1f', 'User ID': 'user_1001', timestamp: '2026-11-24T10:00:05.000Z' },
    ],
  },
  {
    name: 'analytics-go v3 test-fixture form (epoch-millisecond timestamp and sentAt)',
    file: 'go-analytics-go-v3-epoch-ms.json',
    path: '/v1/batch',
    headers: {
      'user-agent': 'analytics-go (version: 3.0.0)',
      'content-type': 'application/json',
      authorization: basic,
    },
    expected: [
      {
        type: 'track',
        userId: '123456',
        timestamp: '2009-11-10T23:00:00.000Z',
        event: 'Download',
        properties: { application: 'Segment Desktop', platform: 'osx', version: '1.1.0' },
      },
      { type: 'screen', userId: 'B', timestamp: '2015-07-10T23:00:00.000Z', name: 'A' },
    ],
  },
  {
    name: 'analytics-java (Gson \\u003d escapes, batch-level context/sequence/writeKey)',
    file: 'java-analytics-java.json',
    path: '/v1/batch',
    headers: {
      authorization: basic,
      'user-agent': 'analytics-java/3.5.1',
      'content-type': 'application/json; charset=UTF-8',
    },
    expected: [
      {
        type: 'identify',
        userId: 'user_1001',
        timestamp: '2026-11-24T10:00:00.123Z',
        context: { locale: 'en-GB', ...lib('analytics-java', '3.5.1') },
      },
      {
        type: 'track',
        userId: 'user_1001',
        timestamp: '2026-11-24T10:00:01.456Z',
        event: 'Order Completed',
        properties: { query: 'a=1&b=2', note: "it's café" },
      },
      { type: 'screen', userId: 'user_1001', timestamp: '2026-11-24T10:00:03.000Z', name: 'Home' },
      { type: 'group', userId: 'user_1001', timestamp: '2026-11-24T10:00:04.000Z', groupId: 'acme_inc' },
      { type: 'alias', 'Previous ID': 'anon_5e1f', 'User ID': 'user_1001', timestamp: '2026-11-24T10:00:05.000Z' },
    ],
  },
  {
    name: '@segment/analytics-node ({ batch, writeKey, sentAt }, _metadata, integrations {})',
    file: 'node-analytics-node.json',
    path: '/v1/batch',
    headers: { 'content-type': 'application/json', authorization: basic, 'user-agent': 'analytics-node-next/latest' },
    expected: [
      {
        type: 'identify',
        userId: 'user_1001',
        timestamp: '2026-11-25T10:00:00.123Z',
        context: lib('@segment/analytics-node', '3.1.0'),
      },
      {
        type: 'track',
        userId: 'user_1001',
        timestamp: '2026-11-25T10:00:01.456Z',
        event: 'Order Completed',
        properties: { revenue: 42.5, note: 'café ☕' },
      },
      {
        type: 'page',
        userId: 'user_1001',
        timestamp: '2026-11-25T10:00:02.000Z',
        properties: { path: '/pricing', url: 'https://app.example.com/pricing' },
      },
      { type: 'screen', userId: 'user_1001', timestamp: '2026-11-25T10:00:03.000Z', name: 'Home' },
      { type: 'group', userId: 'user_1001', timestamp: '2026-11-25T10:00:04.000Z', groupId: 'acme_inc' },
      { type: 'alias', 'Previous ID': 'anon_5e1f', 'User ID': 'user_1001', timestamp: '2026-11-25T10:00:05.000Z' },
    ],
  },
];

describe("the bodies of Segment's official libraries, byte for byte, through the intake to a receiver", () => {
  it.each(CASES)('$name', async ({ file, path, headers, gzip, expected }) => {
    const raw = fixture(file);
    const r = await postBytes(path, gzip ? gzipSync(raw) : raw, headers);
    // The tracking API's answer, unchanged: nothing was refused.
    expect(r).toEqual({ status: 200, body: '{"success":true}' });
    await emulator.drain();
    expect(emulator.deliveries.map((d) => [d.state, d.reason])).toEqual(expected.map(() => ['delivered', undefined]));
    expect(seen).toHaveLength(expected.length);
    const byType = new Map(seen.map((s) => [s.message.type, s]));
    for (const want of expected) {
      const got = byType.get(want.type as WebhookMessage['type']);
      expect(got, `${String(want.type)} delivered`).toBeDefined();
      expect(got!.form).toBe('raw');
      const message = got!.message as unknown as Record<string, unknown>;
      expect(message, String(want.type)).toMatchObject({ ...want, ...(want.type === 'delete' ? {} : { version: 1 }) });
      // The seed's shapes: the strict schema (UTC with milliseconds), string ids, no envelope or null left over.
      expect(messageIssues(message, { strictTimestamps: true }), String(want.type)).toEqual([]);
      expect(message.timestamp).toMatch(UTC_MILLIS_TIMESTAMP);
      if (message.type === 'alias') {
        expect(typeof message['User ID']).toBe('string');
        expect(message).not.toHaveProperty('userId');
      } else expect(typeof message.userId).toBe('string');
      for (const key of [
        'anonymousId',
        'category',
        'writeKey',
        'sentAt',
        'options',
        'sequence',
        '_metadata',
        'integrations',
      ]) {
        expect(message, `${String(want.type)} has no ${key}`).not.toHaveProperty(key);
      }
      if (message.type === 'page') expect(message).not.toHaveProperty('name');
    }
  });
});
