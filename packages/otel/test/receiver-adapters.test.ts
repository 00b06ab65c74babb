// Every adapter with `telemetry: openTelemetry(...)` on the real SDK (in-memory span exporter, metrics
// read by a reader): real signed deliveries over HTTP (valid, duplicate, forged, breaking the plan,
// failing the handler, wrong method), then the spans and metrics each one left. And nothing exported
// ever holds the secret, a signature, a trait or a property value.
import { readFileSync } from 'node:fs';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { fixture, sign, type ReceiverOptions, type WebhookMessage } from '@hookgate/core';
import { afterEach, describe, expect, it } from 'vitest';
import { ADAPTERS, type Served } from './support/receivers.js';
import { spansNamed, startSdk, type Sdk } from './support/otel-sdk.js';
import { compileTrackingPlan } from '@hookgate/plans';

const SECRET = 'whsec_otel_SECRET_9d7c1e';
const TRAIT = 'trait-value-4f1a@example.com';
const PROPERTY = 'property-value-card-4111';
const plan = compileTrackingPlan(
  JSON.parse(
    readFileSync(new URL('../../../test/fixtures/tracking-plans/public-api-rules.json', import.meta.url), 'utf8'),
  ),
);

const track = (messageId: string, event: string, properties: Record<string, unknown>): WebhookMessage =>
  fixture('track', {
    messageId,
    event,
    properties: { ...properties, note: PROPERTY },
    context: { traits: { email: TRAIT } },
  } as never);

const valid = track('m-valid', 'Order Completed', { order_id: 'o1', total: 12 });
const violating = track('m-violating', 'Order Completed', { order_id: 'o2', total: '12' });
const failing = track('m-failing', 'Explode', {});

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

async function post(url: string, message: WebhookMessage, signature?: string) {
  const body = JSON.stringify(message);
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature': signature ?? sign(body, SECRET) },
    body,
  });
  return { status: response.status, body: await response.text(), signature: signature ?? sign(body, SECRET) };
}

function receiverOptions(sdk: Sdk): ReceiverOptions {
  const app = sdk.tracerProvider.getTracer('app');
  return {
    secret: SECRET,
    trackingPlan: plan,
    logger: false,
    onError: () => {},
    telemetry: sdk.telemetry,
    on: {
      track: (msg) => {
        app.startSpan('app.work').end();
        if (msg.event === 'Explode') throw new Error(`the handler failed for ${TRAIT}`);
      },
    },
  };
}

describe.each(Object.keys(ADAPTERS))('%s with openTelemetry()', (adapter) => {
  it('leaves one hookgate.receive span per answer, with its code, status, message and dedupe, and the metrics', async () => {
    const sdk = startSdk();
    served = await ADAPTERS[adapter]!(receiverOptions(sdk));
    const { url } = served;
    const answers = [
      await post(url, valid),
      await post(url, valid),
      await post(url, track('m-forged', 'Order Completed', { order_id: 'o3', total: 1 }), 'a'.repeat(40)),
      await post(url, violating),
      await post(url, failing),
    ];
    const wrongMethod = await fetch(url, { method: 'GET' });
    expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 200, 500]);
    expect(wrongMethod.status).toBe(405);

    const receives = spansNamed(sdk.spans(), 'hookgate.receive');
    expect(receives.map((s) => s.attributes['hookgate.answer.code'])).toEqual([
      'ok',
      'duplicate',
      'invalid_signature',
      'ok',
      'handler_error',
      'method_not_allowed',
    ]);
    const [ok, duplicate, forged, violated, failed, refused] = receives;
    expect(ok!.kind).toBe(SpanKind.SERVER);
    expect(ok!.parentSpanContext).toBeUndefined();
    expect(ok!.attributes).toMatchObject({
      'hookgate.message.type': 'track',
      'hookgate.message.id': 'm-valid',
      'hookgate.event': 'Order Completed',
      'http.response.status_code': 200,
      'hookgate.dedupe': 'new',
      'hookgate.plan.violations': 0,
    });
    expect(duplicate!.attributes).toMatchObject({ 'hookgate.dedupe': 'duplicate', 'http.response.status_code': 200 });
    // Refused before verification: nothing of the message is reported.
    expect(forged!.attributes['http.response.status_code']).toBe(401);
    expect(forged!.attributes['hookgate.message.id']).toBeUndefined();
    expect(forged!.attributes['hookgate.message.type']).toBeUndefined();
    expect(violated!.attributes['hookgate.plan.violations']).toBe(1);
    expect(failed!.status.code).toBe(SpanStatusCode.ERROR);
    // The type only: the handler's message names the user (`recordExceptionMessages` records it).
    expect(failed!.events.map((e) => e.attributes)).toEqual([{ 'exception.type': 'Error' }]);
    expect(refused!.attributes['http.response.status_code']).toBe(405);
    expect(ok!.status.code).toBe(SpanStatusCode.UNSET);

    // The handler's own spans are children of the delivery's span.
    const work = spansNamed(sdk.spans(), 'app.work');
    expect(work).toHaveLength(3); // valid, violating, failing: the duplicate did not run
    expect(work[0]!.parentSpanContext?.spanId).toBe(ok!.spanContext().spanId);
    expect(work[0]!.spanContext().traceId).toBe(ok!.spanContext().traceId);

    expect(await sdk.count('hookgate.receiver.answers')).toBe(6);
    expect(
      await sdk.count('hookgate.receiver.answers', { 'hookgate.answer.code': 'ok', 'hookgate.message.type': 'track' }),
    ).toBe(2);
    expect(await sdk.count('hookgate.receiver.answers', { 'hookgate.answer.code': 'duplicate' })).toBe(1);
    expect(
      await sdk.count('hookgate.receiver.answers', {
        'hookgate.answer.code': 'invalid_signature',
        'http.response.status_code': 401,
      }),
    ).toBe(1);
    expect(
      await sdk.count('hookgate.receiver.answers', {
        'hookgate.answer.code': 'handler_error',
        'http.response.status_code': 500,
      }),
    ).toBe(1);
    expect(await sdk.count('hookgate.receiver.duration')).toBe(6);
    expect(await sdk.count('hookgate.handler.duration')).toBe(3);
    expect(await sdk.count('hookgate.handler.duration', { 'error.type': 'Error' })).toBe(1);
    // By message type and outcome.
    expect(
      await sdk.count('hookgate.handler.duration', {
        'hookgate.message.type': 'track',
        'hookgate.handler.outcome': 'ok',
      }),
    ).toBe(2);
    expect(
      await sdk.count('hookgate.handler.duration', {
        'hookgate.message.type': 'track',
        'hookgate.handler.outcome': 'error',
        'error.type': 'Error',
      }),
    ).toBe(1);
    expect(await sdk.points('hookgate.plan.violations')).toEqual([
      {
        attributes: {
          'hookgate.message.type': 'track',
          'hookgate.event': 'Order Completed',
          'hookgate.plan.rule': expect.stringContaining('Order Completed') as unknown,
          'hookgate.plan.keyword': 'type',
        },
        value: 1,
      },
    ]);

    const exported = await sdk.everything();
    for (const secret of [SECRET, TRAIT, PROPERTY, ...answers.map((a) => a.signature)]) {
      expect(exported).not.toContain(secret);
    }
  });
});

describe('under an HTTP server span of the framework (Express)', () => {
  it('is an INTERNAL child of it', async () => {
    const sdk = startSdk();
    const http = sdk.tracerProvider.getTracer('http');
    served = await ADAPTERS.express!(receiverOptions(sdk), (req, res, next) => {
      const span = http.startSpan('POST', { kind: SpanKind.SERVER });
      res.on('finish', () => span.end());
      context.with(trace.setSpan(context.active(), span), next);
    });
    expect((await post(served.url, valid)).status).toBe(200);
    const [server] = spansNamed(sdk.spans(), 'POST');
    const [receive] = spansNamed(sdk.spans(), 'hookgate.receive');
    expect(receive!.kind).toBe(SpanKind.INTERNAL);
    // The HTTP span carries the HTTP attributes: not repeated here.
    expect(receive!.attributes['http.request.method']).toBeUndefined();
    expect(receive!.parentSpanContext?.spanId).toBe(server!.spanContext().spanId);
  });
});
