// The conformance suite against the example receivers (Express, Fastify, Hono, NestJS): every MUST
// and SHOULD case passes, and no refused request ever reaches a handler.
import { afterEach, describe, expect, it } from 'vitest';
import { start as startExpress } from '../../../../examples/express-receiver/server.js';
import { start as startFastify } from '../../../../examples/fastify-receiver/server.js';
import { start as startHono } from '../../../../examples/hono-receiver/server.js';
import { start as startNest } from '../../../../examples/nest-receiver/server.js';
import { runConformance } from '../../src/conformance/index.js';

const SECRET = 'example-receivers-secret';
const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  while (running.length) await running.pop()!.close();
});

describe.each([
  ['express', startExpress],
  ['fastify', startFastify],
  ['hono', startHono],
  ['nest', startNest],
] as const)('the %s example receiver', (_name, start) => {
  it('passes every MUST and SHOULD case of the conformance suite', async () => {
    const rx = await start({ port: 0, secret: SECRET });
    running.push(rx);
    const report = await runConformance({ url: rx.url, secret: rx.secret, delivered: () => rx.seen });
    const failures = report.cases.filter((c) => !c.passed).map((c) => `${c.level} ${c.id}: ${c.detail}`);
    expect(failures).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.cases).toHaveLength(20);
    // Refusals were 401 (signature) or the precise SHOULD status, never a 2xx.
    const status = (id: string) => report.cases.find((c) => c.id === id)!.status;
    expect([
      status('missing-signature'),
      status('wrong-signature'),
      status('wrong-secret'),
      status('tampered-body'),
    ]).toEqual([401, 401, 401, 401]);
    expect([status('malformed-json'), status('wrong-content-type'), status('oversize-body')]).toEqual([400, 415, 413]);
    // One handled message per signed type, and the genuine follow-ups, never a refused one.
    expect(new Set(rx.seen.map((m) => m.type))).toEqual(
      new Set(['page', 'screen', 'identify', 'track', 'alias', 'group', 'delete']),
    );
  });
});
