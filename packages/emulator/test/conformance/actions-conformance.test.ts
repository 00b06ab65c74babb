// `conformance --destination actions` against real receivers on 127.0.0.1: core's Actions receiver
// passes every case; a classic-only receiver and one that trusts a batch's signature fail the cases
// that name their flaw; the CLI runs it as a real process.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReceiver, toNodeListener } from '@hookgate/core';
import { runConformance } from '../../src/index.js';
import { startCliFromSources } from '../helpers/local-http.js';
import { startHttpServer, type RunningServer, type TestListener } from '../../../../test/helpers/servers.js';

const SECRET = 'conformance-actions-s3cret';
const servers: RunningServer[] = [];

async function serve(listener: TestListener): Promise<string> {
  const server = await startHttpServer(listener);
  servers.push(server);
  return `${server.url}/hook`;
}

/** A receiver that checks the HMAC of the whole body, takes any method, and lets batches through when the first element verifies. */
function batchTrusting(methods: string[]): http.RequestListener {
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const given = Buffer.from(String(req.headers['x-signature'] ?? ''), 'hex');
      const check = (bytes: Buffer | string) => {
        const want = createHmac('sha1', SECRET).update(bytes).digest();
        return given.length === want.length && timingSafeEqual(given, want);
      };
      const parsed = JSON.parse(body.toString()) as unknown;
      const ok = Array.isArray(parsed) ? check(JSON.stringify(parsed[0])) : check(body);
      res.statusCode = !methods.includes(req.method ?? '') ? 405 : ok ? 200 : 401;
      res.end();
    });
  };
}

let hookgateUrl: string;
beforeAll(async () => {
  hookgateUrl = await serve(
    toNodeListener(createReceiver({ destination: 'actions', secret: SECRET, onPayload: () => {} })),
  );
});
afterAll(() => Promise.all(servers.map((s) => s.close())));

describe('runConformance({ destination: "actions" })', () => {
  it("passes every case against core's Actions receiver", async () => {
    const report = await runConformance({ url: hookgateUrl, secret: SECRET, destination: 'actions' });
    expect(report.cases.map((c) => `${c.id} ${c.passed}`)).toEqual([
      'actions-put true',
      'actions-patch true',
      'actions-post true',
      'actions-mapped-payload true',
      'actions-wrong-signature true',
      'actions-duplicate true',
      'actions-batch-refused true',
    ]);
    expect(report.ok).toBe(true);
    expect(report.counts.notRun).toBe(0);
  });

  it('fails PUT and PATCH against a receiver that takes POST only', async () => {
    const url = await serve(batchTrusting(['POST']));
    const report = await runConformance({ url, secret: SECRET, destination: 'actions' });
    const failed = report.cases.filter((c) => !c.passed).map((c) => c.id);
    expect(failed).toEqual(expect.arrayContaining(['actions-put', 'actions-patch']));
    expect(report.ok).toBe(false);
  });

  it('fails the batch case against a receiver that trusts a first-element signature, and says why', async () => {
    const url = await serve(batchTrusting(['POST', 'PUT', 'PATCH']));
    const report = await runConformance({ url, secret: SECRET, destination: 'actions' });
    const batch = report.cases.find((c) => c.id === 'actions-batch-refused')!;
    expect(batch.passed).toBe(false);
    expect(batch.detail).toMatch(/covers only its first element/);
    expect(report.cases.filter((c) => !c.passed).map((c) => c.id)).toEqual(['actions-batch-refused']);
  });

  it('hookgate conformance URL --destination actions --json, as a real process', async () => {
    const run = startCliFromSources(['conformance', hookgateUrl, '--destination', 'actions', '--json'], {
      HOOKGATE_SECRET: SECRET,
    });
    expect(await run.exited).toBe(0);
    const report = run
      .out()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; ok?: boolean; cases?: unknown[] })
      .find((l) => l.event === 'report')!;
    expect(report.ok).toBe(true);
    expect(report.cases).toHaveLength(7);
    const bad = startCliFromSources(['conformance', hookgateUrl, '--destination', 'action'], {
      HOOKGATE_SECRET: SECRET,
    });
    expect(await bad.exited).toBe(2);
    expect(bad.err()).toMatch(/--destination must be classic or actions/);
  }, 60_000);
});
