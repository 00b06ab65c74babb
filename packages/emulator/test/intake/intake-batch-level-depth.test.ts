// A batch's own `context` and `integrations` are merged into every call, so they obey the same depth
// rule as a call's fields, on /v1/batch and /v1/import, over real HTTP: nested too deep, the batch is
// a clear 400 naming the field (not a 500 from a stack overflow that loses every call, which clients
// retry forever); as deep as a call's own `context` may be, it is accepted and delivered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CALL_DEPTH } from '../../src/intake/index.js';
import { deepObjectText } from '../helpers/deep-json.js';
import { startIntakeToReceiver, type IntakeAnswer, type IntakeToReceiver } from '../helpers/intake-to-receiver.js';

let rig: IntakeToReceiver;

beforeAll(async () => {
  rig = await startIntakeToReceiver({ writeKey: 'wk_batch_level_depth', secret: 'batch-level-depth-secret' });
});

afterAll(() => rig.close());

type Answer = IntakeAnswer<{
  success: boolean;
  code?: string;
  message?: string;
  accepted?: number;
  issues?: Array<{ path: string }>;
}>;

const post = (path: string, text: string): Promise<Answer> => rig.post(path, text);

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
      expect(rig.errors).toEqual([]);
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
      await rig.emulator.drain();
      expect(rig.seen.some((m) => m.type === 'track' && m.event === ok.event)).toBe(true);
      expect(rig.errors).toEqual([]);
    });
  }
});
