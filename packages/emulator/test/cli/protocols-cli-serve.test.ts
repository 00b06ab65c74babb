// `hookgate serve --tracking-plan plan.json` with schema control flags, run as a real process: a blocked
// event is a --json filtered line naming the rule and path; a delivered one carries context.protocols (in
// the body, signed over what is delivered, and in the attempt line); bad flags are usage errors.
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCaptureReceiver, type CaptureReceiver } from '../helpers/capture-receiver.js';
import { startCliFromSources } from '../helpers/local-http.js';

const PLAN = fileURLToPath(new URL('../../../../test/fixtures/tracking-plans/public-api-rules.json', import.meta.url));
let receiver: CaptureReceiver;
beforeAll(async () => {
  receiver = await startCaptureReceiver();
});
const dir = mkdtempSync(path.join(tmpdir(), 'hookgate-plan-actions-'));
afterAll(async () => {
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('hookgate serve --tracking-plan', () => {
  it('blocks violations and omits unplanned properties; --json lines carry them', async () => {
    const serve = startCliFromSources([
      'serve',
      '--endpoint',
      `${receiver.url}/webhooks`,
      '--secret',
      'plan-s3cret',
      '--port',
      '0',
      '--json',
      '--tracking-plan',
      PLAN,
      '--violations',
      'block',
      '--unplanned-properties',
      'omit',
    ]);
    try {
      const [, url] = (await serve.waitFor(/"event":"listening","url":"(http:\/\/[^"]+)"/)) as unknown as [
        string,
        string,
      ];
      const post = (body: unknown) =>
        fetch(`${url}/v1/track`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Basic ${Buffer.from('hookgate-dev:').toString('base64')}`,
          },
          body: JSON.stringify(body),
        });
      expect((await post({ userId: 'u1', event: 'Order Completed', properties: { order_id: 'o1' } })).status).toBe(200);
      expect((await post({ userId: 'u1', event: 'Signed Up', properties: { plan: 'pro', utm: 'x' } })).status).toBe(
        200,
      );
      await serve.waitFor(/"event":"attempt"/);
      const lines = serve
        .out()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const filtered = lines.find((l) => l.event === 'filtered')!;
      expect(filtered.reason).toBe(
        'blocked by the tracking plan: TRACK "Order Completed" v1 at properties.total: is required (schemaControls.violations: block)',
      );
      const attempt = lines.find((l) => l.event === 'attempt')!;
      expect(attempt.protocols).toEqual({ omitted: ['utm'] });
      expect(receiver.received).toHaveLength(1);
      const [got] = receiver.received;
      expect(got!.json).toMatchObject({
        event: 'Signed Up',
        properties: { plan: 'pro' },
        context: { protocols: { omitted: ['utm'] } },
      });
      expect(got!.headers['x-signature']).toBe(createHmac('sha1', 'plan-s3cret').update(got!.text).digest('hex'));
    } finally {
      serve.child.kill('SIGINT');
      await serve.exited;
    }
  }, 60_000);

  it('a Webhooks (Actions) request: the whole event carries context.protocols, and so does its --json attempt line', async () => {
    receiver.received.length = 0;
    const subscriptions = path.join(dir, 'subs.json');
    writeFileSync(
      subscriptions,
      JSON.stringify([
        {
          subscribe: 'type = "track"',
          partnerAction: 'send',
          enabled: true,
          mapping: { url: `${receiver.url}/actions`, method: 'POST' },
        },
      ]),
    );
    const serve = startCliFromSources([
      'serve',
      '--port',
      '0',
      '--json',
      '--actions',
      subscriptions,
      '--secret',
      'plan-s3cret',
      '--tracking-plan',
      PLAN,
      '--unplanned-properties',
      'omit',
    ]);
    try {
      const [, url] = (await serve.waitFor(/"event":"listening","url":"(http:\/\/[^"]+)"/)) as unknown as [
        string,
        string,
      ];
      const answer = await fetch(`${url}/v1/track`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Basic ${Buffer.from('hookgate-dev:').toString('base64')}`,
        },
        body: JSON.stringify({ userId: 'u1', event: 'Signed Up', properties: { plan: 'pro', utm: 'x' } }),
      });
      expect(answer.status).toBe(200);
      await serve.waitFor(/"event":"attempt"/);
      const attempt = serve
        .out()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l.event === 'attempt')!;
      expect(attempt.protocols).toEqual({ omitted: ['utm'] });
      const [got] = receiver.received;
      expect(got!.json).toMatchObject({ event: 'Signed Up', context: { protocols: { omitted: ['utm'] } } });
      expect((got!.json as { properties: object }).properties).toEqual({ plan: 'pro' });
    } finally {
      serve.child.kill('SIGINT');
      await serve.exited;
    }
  }, 60_000);

  it('--forward-blocked-to URL: a blocked event is delivered there as it was sent, signed; the filtered line says so', async () => {
    receiver.received.length = 0;
    const serve = startCliFromSources([
      'serve',
      '--endpoint',
      `${receiver.url}/webhooks`,
      '--secret',
      'plan-s3cret',
      '--port',
      '0',
      '--json',
      '--tracking-plan',
      PLAN,
      '--violations',
      'block',
      '--unplanned-properties',
      'omit',
      '--forward-blocked-to',
      `${receiver.url}/blocked`,
    ]);
    try {
      const [listening] = (await serve.waitFor(/^\{"event":"listening"[^\n]*$/m)) as unknown as [string];
      const { url, forwardBlockedTo } = JSON.parse(listening) as { url: string; forwardBlockedTo: string };
      expect(forwardBlockedTo).toBe(`${receiver.url}/blocked`);
      const post = (body: unknown) =>
        fetch(`${url}/v1/track`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Basic ${Buffer.from('hookgate-dev:').toString('base64')}`,
          },
          body: JSON.stringify(body),
        });
      const blocked = { userId: 'u1', event: 'Order Completed', properties: { order_id: 'o1', total: '12', extra: 1 } };
      expect((await post(blocked)).status).toBe(200);
      await serve.waitFor(/"event":"attempt"/);
      expect((await post({ userId: 'u1', event: 'Signed Up', properties: { plan: 'pro' } })).status).toBe(200);
      await serve.waitFor(/"event":"attempt"[^]*"event":"attempt"/);
      const lines = serve
        .out()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const filtered = lines.find((l) => l.event === 'filtered')!;
      expect(filtered.reason).toBe(
        'blocked by the tracking plan: TRACK "Order Completed" v1 at properties.total: must be number (got string) (schemaControls.violations: block); forwarded to blocked events (--forward-blocked-to)',
      );
      expect(receiver.received.map((r) => r.url)).toEqual(['/blocked', '/webhooks']);
      const [forwarded] = receiver.received;
      // As it was sent: nothing omitted, no context.protocols; signed like every delivery.
      expect(forwarded!.json).toMatchObject({ event: 'Order Completed', properties: blocked.properties });
      expect((forwarded!.json as { context?: { protocols?: unknown } }).context?.protocols).toBeUndefined();
      expect(forwarded!.headers['x-signature']).toBe(
        createHmac('sha1', 'plan-s3cret').update(forwarded!.text).digest('hex'),
      );
    } finally {
      serve.child.kill('SIGINT');
      await serve.exited;
    }
  }, 60_000);

  it('a bad control value, controls without a plan, and a malformed plan are usage errors naming the flag', async () => {
    const run = async (args: string[]) => {
      const p = startCliFromSources(['serve', '--endpoint', `${receiver.url}/x`, '--port', '0', ...args]);
      const code = await p.exited;
      return { code, err: p.err() };
    };
    const bad = await run(['--tracking-plan', PLAN, '--violations', 'drop']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--violations must be one of forward, block, omit/);
    const alone = await run(['--unplanned-events', 'block']);
    expect(alone.err).toMatch(/add --tracking-plan FILE/);
    const malformed = await run(['--tracking-plan', fileURLToPath(new URL('../../package.json', import.meta.url))]);
    expect(malformed.code).toBe(2);
    expect(malformed.err).toMatch(/--tracking-plan .*package\.json.*A tracking plan must be/);
    const notUrl = await run([
      '--tracking-plan',
      PLAN,
      '--violations',
      'block',
      '--forward-blocked-to',
      'wk_quarantine',
    ]);
    expect(notUrl.code).toBe(2);
    expect(notUrl.err).toMatch(/--forward-blocked-to must be the full http\(s\) URL blocked events are delivered to/);
    const nothingBlocked = await run(['--tracking-plan', PLAN, '--forward-blocked-to', `${receiver.url}/blocked`]);
    expect(nothingBlocked.code).toBe(2);
    expect(nothingBlocked.err).toMatch(/nothing is blocked: add --unplanned-events block or --violations block/);
    const noPlan = await run(['--forward-blocked-to', `${receiver.url}/blocked`]);
    expect(noPlan.err).toMatch(/add --tracking-plan FILE/);
  }, 60_000);
});
