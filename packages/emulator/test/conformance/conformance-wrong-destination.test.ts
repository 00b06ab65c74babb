// `hookgate conformance --destination actions` pointed at a Webhooks (Classic) receiver: every PUT
// and PATCH is refused 405 and every Segment event 400. One line says so first (what the receiver
// is, how to make it an Actions receiver), not six separate MUST failures to puzzle over. The bin
// runs from its build in its own process against real receivers on 127.0.0.1.
import { createReceiver, toNodeListener } from '@hookgate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';
import { requireBuiltCli, runCli } from '../helpers/cli-process.js';

const SECRET = 'destination-secret';
let classic: RunningServer;
let actions: RunningServer;

beforeAll(async () => {
  requireBuiltCli();
  classic = await startHttpServer(
    toNodeListener(createReceiver({ secret: SECRET, onMessage: () => {}, logger: { warn: () => {} } })),
  );
  actions = await startHttpServer(
    toNodeListener(
      createReceiver({ destination: 'actions', secret: SECRET, onPayload: () => {}, logger: { warn: () => {} } }),
    ),
  );
});

afterAll(async () => {
  await classic?.close();
  await actions?.close();
});

describe('conformance --destination actions against a Classic receiver', () => {
  it('says first that the receiver takes Webhooks (Classic) deliveries, and how to fix it', async () => {
    const r = await runCli(['conformance', `${classic.url}/hook`, '--destination', 'actions', '--secret', SECRET]);
    expect(r.code).toBe(1);
    const [first] = r.stdout.split('\n');
    expect(first).toMatch(/^every PUT and PATCH got 405: this looks like a Webhooks \(Classic\) receiver/);
    expect(first).toContain("destination: 'actions'");
    expect(r.stdout).toMatch(/Failures:\n {2}MUST actions-put/);
    const json = await runCli([
      'conformance',
      `${classic.url}/hook`,
      '--destination',
      'actions',
      '--secret',
      SECRET,
      '--json',
    ]);
    const report = JSON.parse(json.stdout.trim().split('\n').at(-1)!) as { event: string; classicReceiver: boolean };
    expect(report).toMatchObject({ event: 'report', classicReceiver: true });
  }, 60_000);

  it('says nothing of the kind to an Actions receiver, nor in a Classic run', async () => {
    const ok = await runCli(['conformance', `${actions.url}/hook`, '--destination', 'actions', '--secret', SECRET]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).not.toMatch(/Classic\) receiver/);
    const plain = await runCli(['conformance', `${classic.url}/hook`, '--secret', SECRET]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toMatch(/Classic\) receiver/);
  }, 60_000);
});
