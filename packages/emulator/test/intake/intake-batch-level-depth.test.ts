// A batch's own `context` and `integrations` are merged into every call, so they obey the same depth
// rule as a call's fields, on /v1/batch and /v1/import, over real HTTP: nested too deep, the batch is
// a clear 400 naming the field (not a 500 from a stack overflow that loses every call, which clients
// retry forever); as deep as a call's own `context` may be, it is accepted and delivered.
import { createReceiver, toNodeListener, type WebhookMessage } from '@hookgate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';
import { createEmulator, type Emulator } from '../../src/index.js';
import { listenIntake, MAX_CALL_DEPTH, type IntakeServer } from '../../src/intake/index.js';

const SECRET = 'batch-level-depth-secret';
const KEY = 'wk_batch_level_depth';
const basic = `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`;

let receiver: RunningServer;
let seen: WebhookMessage[];
let emulator: Emulator;
let intake: IntakeServer;
const errors: unknown[] = [];

beforeAll(async () => {
  seen = [];
  const rx = createReceiver({ secret: SECRET, onMessage: (message) => void seen.push(message) });
  const listener = toNodeListener(rx);
  receiver = await startHttpServer((req, res) => void listener(req, res));
  emulator = createEmulator({
    sources: [
      {
        writeKey: KEY,
        webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/webhooks` }], sharedSecret: SECRET },
      },
    ],
  });
  intake = await listenIntake(emulator, { onError: (e) => errors.push(e) });
});

afterAll(async () => {
  await intake.close();
  await emulator.close();
  await receiver.close();
});

interface Answer {
  status: number;
  body: { success: boolean; code?: string; message?: string; accepted?: number; issues?: Array<{ path: string }> };
}

async function post(path: string, text: string): Promise<Answer> {
  const res = await fetch(`${intake.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: basic },
    body: text,
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

/** JSON text of an object nested `depth` levels (`{"a":{"a":...}}`), built as text: no stack needed. */
function deepObjectText(depth: number): string {
  return '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
}

let seq = 0;
function call(): { text: string; event: string } {
  const event = `batch-level-${++seq}`;
  return { event, text: JSON.stringify({ type: 'track', userId: 'u1', event, messageId: `m-bl-${seq}` }) };
}

describe('batch-level context and integrations nested too deep', () => {
  for (const route of ['/v1/batch', '/v1/import']) {
    it(`${route}: a context 5,000 levels deep is a 400 naming $.context, not a 500`, async () => {
      const answer = await post(route, `{"batch":[${call().text}],"context":${deepObjectText(5000)}}`);
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('invalid_batch');
      expect(answer.body.message).toContain('$.context');
      expect(answer.body.message).toContain(`${MAX_CALL_DEPTH} levels`);
      expect(answer.body.issues?.[0]?.path).toBe('$.context');
      expect(errors).toEqual([]);
    });

    it(`${route}: the depth rule of a call's own fields applies (150 levels refused, the limit accepted)`, async () => {
      const deep = await post(route, `{"batch":[${call().text}],"integrations":${deepObjectText(150)}}`);
      expect(deep.status).toBe(400);
      expect(deep.body.issues?.[0]?.path).toBe('$.integrations');
      // A call's own context may nest MAX_CALL_DEPTH - 1 levels (the call is level 1); so may the batch's.
      const ok = call();
      const at = await post(route, `{"batch":[${ok.text}],"context":${deepObjectText(MAX_CALL_DEPTH - 1)}}`);
      expect(at.status).toBe(200);
      const over = await post(route, `{"batch":[${call().text}],"context":${deepObjectText(MAX_CALL_DEPTH)}}`);
      expect(over.status).toBe(400);
      await emulator.drain();
      expect(seen.some((m) => m.type === 'track' && m.event === ok.event)).toBe(true);
      expect(errors).toEqual([]);
    });
  }
});
