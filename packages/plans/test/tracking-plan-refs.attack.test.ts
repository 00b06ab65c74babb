// A `$ref` may point anywhere inside its rule (`#/$defs/x`, `#/x-anything/y`), and both validators follow
// it there: every pattern a `$ref` reaches must run on the linear-time engine and be checked when the plan
// is read, like a pattern under `properties` — never JavaScript's backtracking engine at the first request.
import { afterEach, describe, expect, it } from 'vitest';
import { createReceiver, fixture } from '@hookgate/core';
import { compileTrackingPlan, TrackingPlanError } from '../src/index.js';
import { SECRET, send, serveReceiver, type ServedReceiver } from '../../core/test/helpers/receiver-server.js';

let srv: ServedReceiver | undefined;
afterEach(async () => {
  await srv?.receiver.drain();
  await srv?.close();
  srv = undefined;
});

/** A TRACK rule "Signed Up" whose property `code` is `{ $ref }`, with `extra` beside the rule's properties. */
const rule = (ref: string, extra: Record<string, unknown>) => [
  {
    type: 'TRACK',
    key: 'Signed Up',
    version: 1,
    jsonSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      ...extra,
      properties: { properties: { type: 'object', properties: { code: { $ref: ref } } } },
    },
  },
];

const PLACES = [
  ['$defs', '#/$defs/code', (pattern: string) => ({ $defs: { code: { type: 'string', pattern } } })],
  [
    'a keyword of its own',
    '#/x-shared/code',
    (pattern: string) => ({ 'x-shared': { code: { type: 'string', pattern } } }),
  ],
] as const;

describe('patterns a $ref reaches outside the schema keywords', () => {
  for (const [place, ref, extra] of PLACES) {
    it(`in ${place}: ^(a+)+$ is answered at once by a receiver over HTTP`, async () => {
      const seen: unknown[] = [];
      srv = await serveReceiver({
        secret: SECRET,
        trackingPlan: compileTrackingPlan(rule(ref, extra('^(a+)+$'))),
        on: { track: (_msg, ctx) => void seen.push(ctx.violations) },
      });
      const violation = expect.objectContaining({
        path: 'properties.code',
        keyword: 'pattern',
        message: 'must match pattern "^(a+)+$"',
      });
      // 28 × a + "!" took 2.6 s to 22 s on JavaScript's engine, each one more doubling it; 5,000 never end.
      for (const length of [29, 5_000]) {
        const code = `${'a'.repeat(length)}!`;
        const answer = await send(srv.url, fixture('track', { event: 'Signed Up', properties: { code } }));
        expect(answer.status).toBe(200);
        expect(answer.ms).toBeLessThan(4_000); // the receiver's deadline
      }
      expect(seen).toEqual([[violation], [violation]]);
    });

    it(`in ${place}: a look-ahead is refused at start, naming the rule, the path and the construct`, () => {
      const plan = rule(ref, extra('^(?!admin)[a-z]+$'));
      let error: unknown;
      try {
        compileTrackingPlan(plan);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(TrackingPlanError);
      const message = (error as Error).message;
      expect(message).toContain('TRACK "Signed Up" v1');
      expect(message).toContain(`${ref.slice(2).replace('/', '.')}.pattern`);
      expect(message).toContain('negative look-ahead');
      expect(() => createReceiver({ secret: SECRET, trackingPlan: compileTrackingPlan(plan), on: {} })).toThrow(
        /negative look-ahead/,
      );
    });
  }
});
