// The intake survives pathological calls over real HTTP: a call nested thousands of levels deep, a
// very wide one, a huge one, or junk where a call should be is refused alone (named in the answer's
// `refused` list with its reason and JSON path); the good calls beside it are delivered to a real
// receiver, and the answer is never a 5xx. A property test throws random mixes of such calls.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CALL_DEPTH } from '../../src/intake/index.js';
import { deepArrayText, deepObjectText } from '../helpers/deep-json.js';
import { startIntakeToReceiver, type IntakeAnswer, type IntakeToReceiver } from '../helpers/intake-to-receiver.js';

let rig: IntakeToReceiver;

beforeAll(async () => {
  rig = await startIntakeToReceiver({ writeKey: 'wk_pathological', secret: 'pathological-secret' });
});

afterAll(() => rig.close());

type Answer = IntakeAnswer<{
  success: boolean;
  code?: string;
  accepted?: number;
  refused?: Array<{ index: number; recordId?: string; issues: Array<{ path: string; message: string }> }>;
}>;

const post = (path: string, text: string): Promise<Answer> => rig.post(path, text);

let goodSeq = 0;
function goodCall(properties: Record<string, unknown> = { n: goodSeq + 1 }): { text: string; event: string } {
  const event = `good-${++goodSeq}`;
  return {
    event,
    text: JSON.stringify({ type: 'track', userId: 'u1', event, messageId: `m-good-${goodSeq}`, properties }),
  };
}

const delivered = (event: string) => rig.seen.some((m) => m.type === 'track' && m.event === event);

describe('pathological calls', () => {
  it('a call nested 6,000 deep is refused alone with its path; its neighbours are delivered; the answer is 200', async () => {
    const a = goodCall();
    const b = goodCall();
    const deep = `{"type":"track","userId":"u1","event":"Deep","properties":${deepObjectText(6000)}}`;
    const answer = await post('/v1/batch', `{"batch":[${a.text},${deep},${b.text}]}`);
    expect(answer.status).toBe(200);
    expect(answer.body.accepted).toBe(2);
    expect(answer.body.refused).toHaveLength(1);
    const refused = answer.body.refused?.[0];
    expect(refused?.index).toBe(1);
    expect(refused?.issues[0]?.path).toBe('$.batch[1].properties');
    expect(refused?.issues[0]?.message).toContain(`nests deeper than ${MAX_CALL_DEPTH} levels`);
    expect(refused?.recordId).toMatch(/^dlv_/);
    // Its record says why, and does not keep its 30 KB of nesting as text (kept only up to a call's size).
    const record = rig.emulator.deliveries.find((d) => d.id === refused?.recordId);
    expect(record?.reason).toContain('$.batch[1].properties nests deeper than');
    expect(record?.rawCall).toBeUndefined();
    await rig.emulator.drain();
    expect(delivered(a.event) && delivered(b.event)).toBe(true);
    expect(rig.seen.some((m) => m.type === 'track' && m.event === 'Deep')).toBe(false);
    expect(rig.errors).toEqual([]);
  });

  it('the 10 KB call nested 5,000 deep from the report is refused with 400 on a single-call route, not 500', async () => {
    const deep = `{"userId":"u1","event":"Deep","properties":${deepArrayText(5000)}}`;
    expect(Buffer.byteLength(deep)).toBeLessThan(11_000);
    const answer = await post('/v1/track', deep);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('invalid_call');
    expect(answer.body.refused?.[0]?.issues[0]?.path).toBe('$.properties');
    expect(rig.errors).toEqual([]);
  });

  it('deep context, deep traits and a deep array where a call should be are each refused alone', async () => {
    const a = goodCall();
    const items = [
      `{"type":"identify","userId":"u1","traits":${deepObjectText(3000)}}`,
      a.text,
      `{"type":"track","userId":"u1","event":"E","context":{"x":${deepArrayText(8000)}}}`,
      deepArrayText(20_000),
    ];
    const answer = await post('/v1/batch', `{"batch":[${items.join(',')}]}`);
    expect(answer.status).toBe(200);
    expect(answer.body.refused?.map((r) => [r.index, r.issues[0]?.path])).toEqual([
      [0, '$.batch[0].traits'],
      [2, '$.batch[2].context'],
      [3, '$.batch[3][0]'],
    ]);
    await rig.emulator.drain();
    expect(delivered(a.event)).toBe(true);
  });

  it('a call exactly at the depth limit is accepted; one level more is refused', async () => {
    // The call is level 1 and properties level 2: properties nested (limit - 1) levels reach the limit.
    const at = goodCall();
    const atText = at.text.replace(/"properties":\{[^}]*\}/, `"properties":${deepObjectText(MAX_CALL_DEPTH - 1)}`);
    const over = `{"type":"track","userId":"u1","event":"Over","properties":${deepObjectText(MAX_CALL_DEPTH)}}`;
    const answer = await post('/v1/batch', `{"batch":[${atText},${over}]}`);
    expect(answer.status).toBe(200);
    expect(answer.body.refused?.map((r) => r.index)).toEqual([1]);
    await rig.emulator.drain();
    expect(delivered(at.event)).toBe(true);
  });

  it('a whole body nested too deep (400 KB of brackets) is a clear 400, not a 5xx', async () => {
    const whole = await post('/v1/batch', deepArrayText(200_000));
    expect(whole.status).toBe(400);
    expect(whole.body.code).toBe('invalid_batch');
    const objects = await post('/v1/batch', deepObjectText(80_000));
    expect(objects.status).toBe(400);
    const inBatch = await post('/v1/batch', `{"batch":${deepArrayText(200_000)}}`);
    expect(inBatch.status).toBe(400);
    expect(inBatch.body.code).toBe('invalid_call');
    // A deep call of a known type, most of a body long, is recorded without its text.
    const typed = await post(
      '/v1/batch',
      `{"batch":[{"type":"track","userId":"u1","event":"E","properties":${deepArrayText(150_000)}}]}`,
    );
    expect(typed.status).toBe(400);
    const recordId = typed.body.refused?.[0]?.recordId;
    expect(recordId).toMatch(/^dlv_/);
    expect(rig.emulator.deliveries.find((d) => d.id === recordId)?.rawCall).toBeUndefined();
    expect(rig.errors).toEqual([]);
  });

  it('property: random deep, wide, huge and junk calls never sink a batch; every good call is delivered once', async () => {
    const deep = fc
      .record({
        depth: fc.integer({ min: MAX_CALL_DEPTH, max: 9000 }),
        arrays: fc.boolean(),
        field: fc.constantFrom('properties', 'traits', 'context', 'integrations', 'self'),
      })
      .map(({ depth, arrays, field }) => {
        const nested = arrays ? deepArrayText(depth) : deepObjectText(depth);
        return field === 'self' ? nested : `{"type":"track","userId":"u1","event":"Bad","${field}":${nested}}`;
      });
    const wide = fc.integer({ min: 500, max: 12_000 }).map((n) => {
      const props: Record<string, number> = {};
      for (let i = 0; i < n; i++) props[`k${i}`] = i;
      return JSON.stringify({ type: 'track', userId: 'u1', event: 'Wide', properties: props });
    });
    const huge = fc
      .integer({ min: 30_000, max: 70_000 })
      .map((n) => JSON.stringify({ type: 'identify', userId: 'u1', traits: { blob: 'é'.repeat(n / 2) } }));
    const junk = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null');
    // Good calls carry random JSON properties (odd keys such as __proto__, nulls, big numbers, unicode).
    const good = fc
      .dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 8 })
      .map((properties) => ({ properties }));
    const item = fc.oneof(deep, wide, huge, junk, good, good);
    await fc.assert(
      fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: 6 }), async (drawn) => {
        const goods: string[] = [];
        const texts = drawn.map((t) => {
          if (typeof t === 'string') return t;
          const g = goodCall(t.properties);
          goods.push(g.event);
          return g.text;
        });
        const answer = await post('/v1/batch', `{"batch":[${texts.join(',')}]}`);
        expect(answer.status).toBeLessThan(500);
        expect([200, 400]).toContain(answer.status);
        const refused = answer.body.refused ?? [];
        const accepted = answer.body.accepted ?? (answer.status === 200 ? texts.length : 0);
        expect(accepted + refused.length).toBe(texts.length);
        await rig.emulator.drain();
        for (const event of goods)
          expect(rig.seen.filter((m) => m.type === 'track' && m.event === event)).toHaveLength(1);
      }),
      { numRuns: 40 },
    );
    expect(rig.errors).toEqual([]);
  }, 120_000);
});
