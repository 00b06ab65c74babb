// Issue 44: a tracking-plan check that throws (here a recursive $ref over data nested 10,000 deep, which
// overflows the validator's stack) is a violation naming it, on the real SDK over real HTTP: the answer
// is 200, the handler runs, and the delivery's hookgate.receive span ends with it counted. On main,
// handle() rejected: a 500 and a span that never ended, on every retry.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createReceiver, fixture, sign, toNodeListener, type PlanViolation } from '@hookgate/core';
import { afterEach, expect, it } from 'vitest';
import { spansNamed, startSdk } from './support/otel-sdk.js';

const SECRET = 'whsec_otel_plan_failure_31c0';

let server: http.Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

const plan = [
  {
    type: 'TRACK',
    key: 'Tree',
    version: 1,
    jsonSchema: {
      definitions: { node: { type: 'object', properties: { c: { $ref: '#/definitions/node' } } } },
      properties: { properties: { $ref: '#/definitions/node' } },
    },
  },
];

function post(port: number, body: string): Promise<{ status: number; code: unknown }> {
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', 'x-signature': sign(body, SECRET) };
    const req = http.request({ host: '127.0.0.1', port, path: '/', method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, code: (JSON.parse(text) as { code: unknown }).code }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

it('answers 200, runs the handler with the failure named, and ends the span, counted', async () => {
  const sdk = startSdk();
  const seen: (readonly PlanViolation[])[] = [];
  const listener = toNodeListener(
    createReceiver({
      secret: SECRET,
      telemetry: sdk.telemetry,
      logger: false,
      trackingPlan: plan,
      on: { track: (_msg, ctx) => void seen.push(ctx.violations) },
    }),
  );
  server = http.createServer((req, res) => void listener(req, res));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const tree = `${'{"c":'.repeat(10_000)}{}${'}'.repeat(10_000)}`;
  const body = JSON.stringify(fixture('track', { event: 'Tree', messageId: 'deep-1', properties: { x: 1 } })).replace(
    '{"x":1}',
    tree,
  );

  expect(await post(port, body)).toEqual({ status: 200, code: 'ok' });
  expect(seen).toHaveLength(1);
  expect(seen[0]).toEqual([
    {
      path: '(root)',
      keyword: 'planCheckFailed',
      message:
        'the tracking plan check failed (RangeError: Maximum call stack size exceeded); the message was not checked',
    },
  ]);
  // The retry the sender would send is a duplicate now, not the same failure again.
  expect(await post(port, body)).toEqual({ status: 200, code: 'duplicate' });

  const receives = spansNamed(sdk.spans(), 'hookgate.receive');
  expect(receives.map((s) => [s.attributes['hookgate.answer.code'], s.attributes['hookgate.dedupe']])).toEqual([
    ['ok', 'new'],
    ['duplicate', 'duplicate'],
  ]);
  expect(receives[0]!.attributes['http.response.status_code']).toBe(200);
  expect(receives[0]!.attributes['hookgate.plan.violations']).toBe(1);
  expect(await sdk.count('hookgate.plan.violations', { 'hookgate.plan.keyword': 'planCheckFailed' })).toBe(1);
});
