// A verified delivery that carries a `traceparent` continues that trace, read through the global
// propagator, without any HTTP instrumentation loaded: `hookgate.receive` is its SERVER span's child.
// A forged one (wrong signature) with the same header starts a trace of its own: a refused request
// must not join, nor seed, anyone's trace. Each adapter, real HTTP.
import { propagation, SpanKind } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { fixture, sign } from '@hookgate/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spansNamed, startSdk } from './support/otel-sdk.js';
import { ADAPTERS, type Served } from './support/receivers.js';

const SECRET = 'whsec_otel_traceparent_SECRET_1c9d';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

beforeAll(() => propagation.setGlobalPropagator(new W3CTraceContextPropagator()));
afterAll(() => propagation.disable());

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

async function post(url: string, messageId: string, forged = false): Promise<number> {
  const body = JSON.stringify(fixture('track', { messageId, event: 'Paid' } as never));
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-signature': forged ? sign(body, 'another secret') : sign(body, SECRET),
      traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`,
    },
    body,
  });
  await response.text();
  return response.status;
}

describe.each(Object.keys(ADAPTERS))('%s', (adapter) => {
  it('continues a verified request’s trace, and never a forged one’s', async () => {
    const sdk = startSdk();
    served = await ADAPTERS[adapter]!({ secret: SECRET, telemetry: sdk.telemetry, logger: false, onMessage() {} });
    expect(await post(served.url, 'm-verified')).toBe(200);
    expect(await post(served.url, 'm-forged', true)).toBe(401);

    const [verified, forged] = spansNamed(sdk.spans(), 'hookgate.receive');
    expect(verified!.kind).toBe(SpanKind.SERVER);
    expect(verified!.spanContext().traceId).toBe(TRACE_ID);
    expect(verified!.parentSpanContext?.spanId).toBe(PARENT_ID);
    expect(verified!.attributes['http.response.status_code']).toBe(200);
    // HTTP semantic conventions on the SERVER span.
    expect(verified!.attributes['http.request.method']).toBe('POST');

    expect(forged!.attributes['http.response.status_code']).toBe(401);
    expect(forged!.spanContext().traceId).not.toBe(TRACE_ID);
    expect(forged!.parentSpanContext).toBeUndefined();
  });
});
