import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Analytics, DeliveryError } from '../src/index.js';
import { delay, startCaptureServer, type CaptureServer } from './helpers/capture-server.js';

let server: CaptureServer | undefined;
let analytics: Analytics | undefined;

afterEach(async () => {
  await analytics?.close();
  await server?.close();
  analytics = undefined;
  server = undefined;
});

const ids = (batch: any[]) => batch.map((m) => m.messageId);

describe('retries', () => {
  it('retries a 500 and delivers the batch exactly once', async () => {
    server = await startCaptureServer((n) => (n === 0 ? { status: 500, body: '{"error":"boom"}' } : { status: 200 }));
    const errors: DeliveryError[] = [];
    analytics = new Analytics('wk', { endpoint: server.url, flushAfter: 60_000, onError: (e) => errors.push(e) });
    const sent = [analytics.track({ userId: 'u1', event: 'A' }), analytics.track({ userId: 'u1', event: 'B' })];
    await analytics.flush();
    expect(server.requests.map((r) => r.answered)).toEqual([500, 200]);
    expect(ids(server.requests[0]!.body.batch)).toEqual(sent);
    expect(ids(server.delivered())).toEqual(sent);
    expect(errors).toEqual([]);
    // The retry carries the same messages and a fresh sentAt.
    expect(Date.parse(server.requests[1]!.body.sentAt)).toBeGreaterThanOrEqual(
      Date.parse(server.requests[0]!.body.sentAt),
    );
  });

  it('does not retry a 400 and reports it to onError with the messages', async () => {
    server = await startCaptureServer(() => ({ status: 400, body: '{"error":"bad batch"}' }));
    const errors: DeliveryError[] = [];
    analytics = new Analytics('wk', { endpoint: server.url, flushAfter: 60_000, onError: (e) => errors.push(e) });
    const sent = [analytics.track({ userId: 'u1', event: 'A' }), analytics.identify({ userId: 'u1' })];
    await analytics.flush();
    await delay(300);
    expect(server.requests).toHaveLength(1);
    expect(errors).toHaveLength(1);
    const [e] = errors;
    expect(e).toBeInstanceOf(DeliveryError);
    expect(e!.reason).toBe('rejected');
    expect(e!.status).toBe(400);
    expect(e!.attempts).toBe(1);
    expect(e!.message).toContain('bad batch');
    expect(e!.messages.map((m) => m.messageId)).toEqual(sent);
    expect(e!.messages[0]).toMatchObject({ type: 'track', event: 'A', userId: 'u1' });
  });

  it('honours Retry-After on a 429', async () => {
    server = await startCaptureServer((n) =>
      n === 0 ? { status: 429, headers: { 'Retry-After': '1' } } : { status: 200 },
    );
    analytics = new Analytics('wk', { endpoint: server.url, flushAfter: 60_000 });
    analytics.track({ userId: 'u1', event: 'A' });
    await analytics.flush();
    expect(server.requests.map((r) => r.answered)).toEqual([429, 200]);
    const waited = server.requests[1]!.at - server.requests[0]!.at;
    expect(waited).toBeGreaterThanOrEqual(950); // the backoff alone would be ~100 ms
    expect(waited).toBeLessThan(5000);
  });

  it('gives up after maxRetries and reports the batch', async () => {
    server = await startCaptureServer(() => ({ status: 503 }));
    const errors: DeliveryError[] = [];
    analytics = new Analytics('wk', {
      endpoint: server.url,
      maxRetries: 2,
      flushAfter: 60_000,
      onError: (e) => errors.push(e),
    });
    const id = analytics.track({ userId: 'u1', event: 'A' });
    await analytics.flush();
    expect(server.requests).toHaveLength(3);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ reason: 'retries-exhausted', status: 503, attempts: 3 });
    expect(errors[0]!.messages.map((m) => m.messageId)).toEqual([id]);
  });

  it('times out a server that never answers, retries, and loses nothing once it recovers', async () => {
    server = await startCaptureServer((n) => (n < 2 ? 'hang' : { status: 200 }));
    const errors: DeliveryError[] = [];
    analytics = new Analytics('wk', {
      endpoint: server.url,
      timeoutMs: 200,
      flushAt: 5,
      flushAfter: 60_000,
      onError: (e) => errors.push(e),
    });
    const sent: string[] = [];
    for (let i = 0; i < 12; i++) sent.push(analytics.track({ userId: 'u1', event: `E${i}` }));
    await analytics.flush();
    expect(errors).toEqual([]);
    expect(server.requests.filter((r) => r.answered === 'hang')).toHaveLength(2);
    expect(ids(server.delivered()).sort()).toEqual([...sent].sort());
    // Delivered once each: no batch was accepted twice.
    expect(new Set(ids(server.delivered())).size).toBe(sent.length);
  });

  it('retries network errors: nothing listening, then the intake comes up', async () => {
    // Reserve a port, free it, and start the intake on it a little later.
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((r) => probe.close(() => r()));

    const errors: DeliveryError[] = [];
    analytics = new Analytics('wk', {
      endpoint: `http://127.0.0.1:${port}`,
      flushAfter: 60_000,
      onError: (e) => errors.push(e),
    });
    const id = analytics.track({ userId: 'u1', event: 'A' });
    const flushed = analytics.flush();
    await delay(250);
    const received: any[] = [];
    const late = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push(JSON.parse(body));
        res.end('{"success":true}');
      });
    });
    await new Promise<void>((r) => late.listen(port, '127.0.0.1', r));
    try {
      await flushed;
      expect(errors).toEqual([]);
      expect(received.flatMap((b) => ids(b.batch))).toEqual([id]);
    } finally {
      await analytics.close();
      late.closeAllConnections();
      await new Promise<void>((r) => late.close(() => r()));
    }
  });

  it('reports a refused connection once retries run out', async () => {
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((r) => probe.close(() => r()));
    const errors: DeliveryError[] = [];
    analytics = new Analytics('wk', {
      endpoint: `http://127.0.0.1:${port}`,
      maxRetries: 1,
      onError: (e) => errors.push(e),
    });
    analytics.track({ userId: 'u1', event: 'A' });
    await analytics.flush();
    expect(errors).toHaveLength(1);
    expect(errors[0]!.reason).toBe('retries-exhausted');
    expect(errors[0]!.status).toBeUndefined();
    expect(errors[0]!.message).toContain('ECONNREFUSED');
  });
});

describe('kept-alive connections', () => {
  it('resends at once, without using a retry, when the server dropped a reused connection', async () => {
    server = await startCaptureServer((n) => (n === 1 ? 'reset' : { status: 200 }));
    const errors: DeliveryError[] = [];
    analytics = new Analytics('wk', {
      endpoint: server.url,
      flushAt: 1,
      maxRetries: 0,
      maxInFlight: 1,
      onError: (e) => errors.push(e),
    });
    analytics.track({ userId: 'u1', event: 'A' });
    await analytics.flush();
    analytics.track({ userId: 'u1', event: 'B' }); // goes out on the kept-alive connection, which the server drops
    await analytics.flush();
    expect(errors).toEqual([]);
    expect(server.requests.map((r) => r.answered)).toEqual([200, 'reset', 200]);
    expect(server.delivered().map((m) => m.event)).toEqual(['A', 'B']);
  });

  it('counts a reset of a fresh connection as a failed attempt', async () => {
    server = await startCaptureServer(() => 'reset');
    const errors: DeliveryError[] = [];
    analytics = new Analytics('wk', {
      endpoint: server.url,
      flushAt: 1,
      maxRetries: 0,
      onError: (e) => errors.push(e),
    });
    analytics.track({ userId: 'u1', event: 'A' });
    await analytics.flush();
    expect(server.requests).toHaveLength(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ reason: 'retries-exhausted', attempts: 1 });
    expect(errors[0]!.message).toMatch(/socket hang up|ECONNRESET/);
  });
});

describe('https', () => {
  it('does not retry an endpoint with a self-signed certificate, and reports it', async () => {
    const { generate } = await import('selfsigned');
    const pems = generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keySize: 2048,
      algorithm: 'sha256',
      days: 1,
    });
    const https = await import('node:https');
    let requests = 0;
    const tls = https.createServer({ key: pems.private, cert: pems.cert }, (_req, res) => {
      requests++;
      res.end('{"success":true}');
    });
    await new Promise<void>((r) => tls.listen(0, '127.0.0.1', r));
    const { port } = tls.address() as AddressInfo;
    const errors: DeliveryError[] = [];
    analytics = new Analytics('wk', { endpoint: `https://127.0.0.1:${port}`, onError: (e) => errors.push(e) });
    try {
      analytics.track({ userId: 'u1', event: 'A' });
      await analytics.flush();
      expect(requests).toBe(0);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ reason: 'rejected', attempts: 1 });
      expect(errors[0]!.message).toMatch(/self[- ]signed/i);
    } finally {
      await analytics.close();
      tls.closeAllConnections();
      await new Promise<void>((r) => tls.close(() => r()));
    }
  });
});
