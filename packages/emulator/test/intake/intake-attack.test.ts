// The intake refusing a body before its end (over the 500 KB batch limit, declared or counted; an
// encoding it cannot read), against clients in another process that write the whole body (5 MB) before
// they read: each reads the refusal, never a reset (the rest of the body is read and dropped first),
// and a request pipelined behind it is still answered.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';
import type { RawOutcome, RawPlan } from '../../../../test/adapters/raw-attack-client.js';
import { createEmulator, listenIntake, type Emulator, type IntakeServer } from '../../src/index.js';
import { runOutcomesProcess } from '../../../../test/helpers/outcomes-process.js';

const CLIENT = fileURLToPath(new URL('../../../../test/adapters/raw-attack-client.ts', import.meta.url));
const KEY = 'wk_intake_attack';
const FIVE_MB = 5 * 1024 * 1024;

function clients(plans: RawPlan[]): Promise<RawOutcome[]> {
  return runOutcomesProcess<RawOutcome[]>(CLIENT, plans);
}

let rx: RunningServer;
let delivered: string[];
let emulator: Emulator;
let intake: IntakeServer;
beforeAll(async () => {
  delivered = [];
  rx = await startHttpServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => (delivered.push(body), res.end('{}')));
  });
  emulator = createEmulator({
    sources: [{ writeKey: KEY, webhooks: { enabled: true, endpoints: [{ url: `${rx.url}/hook` }] } }],
  });
  intake = await listenIntake(emulator);
});
afterAll(async () => {
  await intake.close();
  await emulator.close();
  await rx.close();
});

describe('the intake refuses a 5 MB body to a client that reads only after writing it', () => {
  it('declared, chunked, with a request pipelined behind, and in an unknown encoding: each client reads the refusal', async () => {
    const port = Number(new URL(intake.url).port);
    const auth = `Authorization: Basic ${Buffer.from(`${KEY}:`).toString('base64')}`;
    const head = (framing: string, extra = '') =>
      `POST /v1/batch HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n${auth}\r\n${extra}${framing}\r\n\r\n`;
    const behindBody = JSON.stringify({ userId: 'u1', event: 'Behind the refused body', messageId: 'behind-1' });
    const behind = `POST /v1/track HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n${auth}\r\nContent-Length: ${behindBody.length}\r\n\r\n${behindBody}`;
    const late = { readFromMs: 1_200, waitMs: 4_500 };
    const outcomes = await clients([
      { port, send: head(`Content-Length: ${FIVE_MB}`), fill: { bytes: FIVE_MB }, ...late },
      { port, send: head('Transfer-Encoding: chunked'), fill: { bytes: FIVE_MB, chunked: true }, ...late },
      { port, send: head(`Content-Length: ${FIVE_MB}`), fill: { bytes: FIVE_MB, then: behind }, ...late },
      { port, send: head(`Content-Length: ${FIVE_MB}`, 'Content-Encoding: br\r\n'), fill: { bytes: FIVE_MB }, ...late },
    ]);
    const codes = ['batch_too_large', 'batch_too_large', 'batch_too_large', 'unsupported_encoding'];
    for (const [i, o] of outcomes.entries()) {
      const where = `client ${i}: ${JSON.stringify({ ...o, received: o.received.slice(0, 400) })}`;
      expect(o.error, where).toBeUndefined();
      expect(o.statuses[0], where).toBeGreaterThanOrEqual(400);
      expect(o.statuses[0], where).toBeLessThan(500);
      expect(o.received, where).toContain(`"code":"${codes[i]}"`);
    }
    expect(outcomes[2]!.statuses).toEqual([400, 200]); // the request behind it, answered in order
    await emulator.drain();
    expect(delivered.map((b) => (JSON.parse(b) as { event?: string }).event)).toEqual(['Behind the refused body']);
  }, 30_000);
});

describe('a write key spelled with JSON escapes is masked in the call kept as sent', () => {
  it('\\/, \\" and \\u escapes of the key (PHP and Python encoders) never show it in the views', async () => {
    const key = 'wk/é"key_0123456789';
    const rx2 = await startHttpServer((req, res) => void (req.resume(), req.on('end', () => res.end('{}'))));
    const em = createEmulator({
      sources: [{ writeKey: key, webhooks: { enabled: true, endpoints: [{ url: `${rx2.url}/hook` }] } }],
    });
    const server = await listenIntake(em);
    try {
      // An integer beyond 2^53 makes the intake keep the call's text as sent (and the record says why).
      const spellings = [
        'wk\\/é\\"key_0123456789',
        'wk/\\u00e9\\"key_0123456789',
        'wk\\u002f\\u00E9\\u0022key_0123456789',
      ];
      const bodies = spellings.map(
        (spelled, i) =>
          `{"writeKey":"${spelled}","userId":"u1","event":"Escaped ${i}","messageId":"m-${i}","properties":{"n":12345678901234567890}}`,
      );
      // The first sent again: a duplicate, whose text is read back from the request's kept bytes.
      for (const body of [...bodies, bodies[0]!.replace('"n":12345678901234567890', '"n":1')]) {
        const r = await fetch(`${server.url}/v1/track`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        expect(r.status, body).toBe(200);
      }
      await em.drain();
      expect(em.deliveries.map((d) => d.rawCall !== undefined)).toEqual([true, true, true, true]);
      expect(em.deliveries[3]!.duplicateOf).toBe(em.deliveries[0]!.id);
      const views = [await (await fetch(`${server.url}/_hookgate/deliveries`)).text()];
      for (const d of em.deliveries)
        views.push(await (await fetch(`${server.url}/_hookgate/ui/api/deliveries/${d.id}`)).text());
      for (const view of views) {
        expect(view).toContain('Escaped');
        for (const spelled of [key, ...spellings, JSON.stringify(key).slice(1, -1), 'key_0123456789'])
          expect(view).not.toContain(spelled);
      }
    } finally {
      await server.close();
      await em.close();
      await rx2.close();
    }
  });
});
