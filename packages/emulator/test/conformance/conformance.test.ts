// The receiver conformance suite, run over real HTTP against receivers that pass it, a naive one that
// fails its raw-body and refusal SHOULDs, and broken ones that fail its MUSTs.
import { createHmac } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import selfsigned from 'selfsigned';
import {
  createReceiver,
  messageIssues,
  toNodeListener,
  type ReceiverOptions,
  type WebhookMessage,
} from '@hookgate/core';
import { afterEach, describe, expect, it } from 'vitest';
import { start as startNaive } from '../../../../test/naive-receiver/server.js';
import { readAll, startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';
import {
  ConformanceUnreachableError,
  formatConformanceReport,
  RAW_BODY_VARIANTS,
  runConformance,
  type ConformanceReport,
} from '../../src/conformance/index.js';

const SECRET = 'conformance-secret';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function coreReceiver(options: Partial<ReceiverOptions> = {}) {
  const seen: WebhookMessage[] = [];
  const receiver = createReceiver({
    secret: SECRET,
    onMessage: (m) => void seen.push(m),
    logger: { warn: () => {} },
    ...options,
  });
  const server = await startHttpServer(toNodeListener(receiver));
  cleanups.push(server.close);
  return { url: `${server.url}/webhooks`, seen };
}

const failed = (r: ConformanceReport) =>
  r.cases
    .filter((c) => !c.passed)
    .map((c) => c.id)
    .sort();
const byId = (r: ConformanceReport, id: string) => r.cases.find((c) => c.id === id)!;

describe('runConformance', () => {
  it('sends each probe on a connection of its own, announced keep-alive (so a receiver refusing a large body early drains it)', async () => {
    const receiver = createReceiver({ secret: SECRET, onMessage: () => {}, logger: { warn: () => {} } });
    const listener = toNodeListener(receiver);
    const connectionHeaders: Array<string | undefined> = [];
    const server = await startHttpServer((req, res) => {
      connectionHeaders.push(req.headers.connection);
      return listener(req, res);
    });
    cleanups.push(server.close);
    let connections = 0;
    server.server.on('connection', () => connections++);
    const report = await runConformance({ url: `${server.url}/webhooks`, secret: SECRET });
    expect(report.cases.length).toBeGreaterThan(10);
    expect(connectionHeaders.length).toBeGreaterThanOrEqual(report.cases.length);
    expect(new Set(connectionHeaders)).toEqual(new Set(['keep-alive']));
    expect(connections).toBe(connectionHeaders.length);
  });

  it('passes every MUST and SHOULD case against a receiver built with @hookgate/core', async () => {
    const rx = await coreReceiver();
    const report = await runConformance({ url: rx.url, secret: SECRET, delivered: () => rx.seen });
    expect(failed(report)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.cases.map((c) => c.id)).toEqual([
      'signed-page',
      'signed-screen',
      'signed-identify',
      'signed-track',
      'signed-alias',
      'signed-group',
      'signed-delete',
      'missing-signature',
      'wrong-signature',
      'wrong-secret',
      'tampered-body',
      'duplicate-delivery',
      'malformed-json',
      'wrong-content-type',
      'oversize-body',
      ...RAW_BODY_VARIANTS.map((v) => v.id),
      'quick-answer',
    ]);
    // Observed statuses, as the receiver's status table says.
    expect(byId(report, 'signed-alias').status).toBe(200);
    expect(byId(report, 'missing-signature').status).toBe(401);
    expect(byId(report, 'tampered-body').status).toBe(401);
    expect(byId(report, 'malformed-json').status).toBe(400);
    expect(byId(report, 'wrong-content-type').status).toBe(415);
    expect(byId(report, 'oversize-body').status).toBe(413);
    for (const c of report.cases) expect(c.durationMs).toBeGreaterThanOrEqual(0);
    // Every message the suite sent in the seed's shapes reached the handler, valid, one of each type.
    const types = new Set(rx.seen.map((m) => m.type));
    expect([...types].sort()).toEqual(['alias', 'delete', 'group', 'identify', 'page', 'screen', 'track']);
    for (const m of rx.seen) expect(messageIssues(m, { strictTimestamps: true })).toEqual([]);
    const alias = rx.seen.find((m) => m.type === 'alias') as Record<string, unknown>;
    expect(alias['Previous ID']).toBe('anon_5e1f');
    expect(alias).not.toHaveProperty('userId');
    const del = rx.seen.find((m) => m.type === 'delete')!;
    expect(Object.keys(del).sort()).toEqual(['timestamp', 'type', 'userId']);
  });

  it('catches a naive receiver: every raw-body case, malformed JSON, content type and size fail as SHOULD', async () => {
    const naive = await startNaive({ secret: SECRET });
    cleanups.push(naive.close);
    const report = await runConformance({ url: naive.url, secret: SECRET, delivered: () => naive.seen });
    expect(failed(report)).toEqual(
      ['malformed-json', 'oversize-body', 'wrong-content-type', ...RAW_BODY_VARIANTS.map((v) => v.id)].sort(),
    );
    // Its === over the re-serialized body still refuses forgeries: no MUST fails, so the run is ok.
    expect(report.cases.filter((c) => c.level === 'MUST').every((c) => c.passed)).toBe(true);
    expect(report.ok).toBe(true);
    expect(report.counts).toEqual({ notRun: 0, passed: report.cases.length - 7, mustFailed: 0, shouldFailed: 7 });
    for (const v of RAW_BODY_VARIANTS) expect(byId(report, v.id).status).toBe(401);
    expect(byId(report, 'malformed-json').status).toBe(500);
    expect(byId(report, 'wrong-content-type').status).toBe(200);
    expect(byId(report, 'oversize-body').status).toBe(200);
    expect(byId(report, 'raw-body-number-format').detail).toMatch(/raw body bytes/);
  });

  it('fails the MUSTs of a receiver that skips verification', async () => {
    const rx = await coreReceiver({ secret: undefined, insecureSkipVerification: true });
    const report = await runConformance({ url: rx.url, secret: SECRET, delivered: () => rx.seen });
    expect(report.ok).toBe(false);
    const mustFailed = report.cases
      .filter((c) => c.level === 'MUST' && !c.passed)
      .map((c) => c.id)
      .sort();
    expect(mustFailed).toEqual(['missing-signature', 'tampered-body', 'wrong-secret', 'wrong-signature']);
    expect(byId(report, 'wrong-secret').detail).toMatch(/instead of a 4xx.*reached the handler/);
    expect(formatConformanceReport(report)).toMatch(/4 MUST failures/);
  });

  it('sees a refused message counted as delivered when the genuine one is answered as a duplicate', async () => {
    // Dedupes on messageId BEFORE verifying: a forged request poisons the store for the real one.
    const handled = new Set<string>();
    const server = await startHttpServer(async (req, res) => {
      const raw = await readAll(req);
      let message: { messageId?: string };
      try {
        message = JSON.parse(raw.toString('utf8'));
      } catch {
        return void res.writeHead(400).end();
      }
      const key = message.messageId ?? raw.toString('base64');
      if (handled.has(key))
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"duplicate":true}');
      handled.add(key);
      const good = createHmac('sha1', SECRET).update(raw).digest('hex') === req.headers['x-signature'];
      res.writeHead(good ? 200 : 401).end();
    });
    cleanups.push(server.close);
    const report = await runConformance({ url: `${server.url}/hook`, secret: SECRET, oversizeBytes: 64 * 1024 });
    const c = byId(report, 'wrong-signature');
    expect(c.passed).toBe(false);
    expect(c.status).toBe(401);
    expect(c.detail).toMatch(/answered as a duplicate: the refused one was counted as delivered/);
    expect(report.ok).toBe(false);
  });

  it('reports a receiver that does not answer in time, and one that answers slowly', async () => {
    // Takes 150 ms over page messages, answers everything else at once.
    const server: RunningServer = await startHttpServer(async (req, res) => {
      const raw = await readAll(req);
      setTimeout(() => res.writeHead(200).end(), raw.includes('"type":"page"') ? 150 : 0);
    });
    cleanups.push(server.close);
    const slow = await runConformance({ url: server.url, secret: SECRET, quickMs: 100, oversizeBytes: 1024 });
    expect(byId(slow, 'signed-track').passed).toBe(true);
    expect(byId(slow, 'quick-answer').passed).toBe(false);
    expect(byId(slow, 'quick-answer').detail).toMatch(/slowest answer \d+/);
    const late = await runConformance({ url: server.url, secret: SECRET, timeoutMs: 100, oversizeBytes: 1024 });
    expect(byId(late, 'signed-page').passed).toBe(false);
    expect(byId(late, 'signed-page').status).toBeNull();
    expect(byId(late, 'signed-page').detail).toMatch(/no answer within 100 ms/);
    expect(late.ok).toBe(false);
  });

  it('refuses a self-signed https receiver, as the sender does: one error, no case run, no request reached it', async () => {
    const pems = selfsigned.generate([{ name: 'commonName', value: '127.0.0.1' }], { days: 1, keySize: 2048 });
    let requests = 0;
    const server = https.createServer({ key: pems.private, cert: pems.cert }, (_req, res) => {
      requests++;
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.address() as AddressInfo;
    const error = await runConformance({
      url: `https://127.0.0.1:${port}/hook`,
      secret: SECRET,
      oversizeBytes: 1024,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConformanceUnreachableError);
    expect((error as Error).message).toMatch(
      /cannot reach the receiver at https:\/\/127\.0\.0\.1:\d+\/hook: .*(SELF_SIGNED|self-signed).*trusted/i,
    );
    expect(requests).toBe(0);
  });

  it('refuses bad options with a message naming the option', async () => {
    await expect(runConformance({ url: 'not a url', secret: SECRET })).rejects.toThrow(/option url/);
    await expect(runConformance({ url: 'ftp://x/', secret: SECRET })).rejects.toThrow(/http or https/);
    await expect(runConformance({ url: 'http://127.0.0.1:1/', secret: '' })).rejects.toThrow(/option secret/);
    await expect(runConformance({ url: 'http://127.0.0.1:1/', secret: SECRET, timeoutMs: 0 })).rejects.toThrow(
      /option timeoutMs/,
    );
  });

  it('builds raw-body cases whose bytes JSON.stringify does not reproduce, as valid messages', () => {
    const ids = { userId: 'u', messageId: 'm', timestamp: '2026-01-01T00:00:00.000Z' };
    for (const v of RAW_BODY_VARIANTS) {
      const raw = v.build(ids);
      expect(JSON.stringify(JSON.parse(raw))).not.toBe(raw);
      expect(messageIssues(JSON.parse(raw), { strictTimestamps: true })).toEqual([]);
    }
  });
});
