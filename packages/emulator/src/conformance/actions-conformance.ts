import { randomBytes } from 'node:crypto';
import { sign } from '@hookgate/core';
import { type Call } from '@hookgate/core/calls';
import { ACTIONS_USER_AGENT } from '../actions/actions-delivery.js';
import { callToSpecEvent } from '../segment-event.js';
import { redactUrl } from '../redact.js';
import { conformanceReport } from './conformance-report.js';
import type { ConformanceCaseResult, ConformanceLevel, ConformanceReport } from './conformance-types.js';
import { probe, type ProbeResult } from './http-probe.js';
import { is2xx, is4xx, observed } from './probe-verdicts.js';
import { ConformanceUnreachableError } from './unreachable-error.js';

/** What the Actions suite needs (checked by `runConformance`). */
export interface ActionsConformanceSettings {
  url: URL;
  secret: string;
  headers: Record<string, string>;
  timeoutMs: number;
  onCase?: (result: ConformanceCaseResult, index: number, total: number) => void;
}

/** The number of cases of `runConformance({ destination: 'actions' })`. */
export const ACTIONS_CONFORMANCE_CASE_COUNT = 7;

/**
 * The conformance cases of a Webhooks (Actions) receiver, sent as Segment's Actions destination sends
 * (`User-Agent: Segment (Actions)`, `X-Signature` = HMAC-SHA1 of the body; a batch's of its first
 * element only). MUST: whole Segment events by PUT, PATCH and POST → 2xx; a mapped payload (no
 * Segment event fields) → 2xx; a wrong signature → 4xx; the same delivery twice → 2xx both times; a
 * batch signed over its first element only → 4xx (refused unless the receiver opted in by name).
 *
 * @example
 * const report = await runActionsConformance({ url: new URL(url), secret, headers: {}, timeoutMs: 5000 });
 */
export async function runActionsConformance(s: ActionsConformanceSettings): Promise<ConformanceReport> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const runId = randomBytes(4).toString('hex');
  const shownUrl = redactUrl(s.url);
  const cases: ConformanceCaseResult[] = [];
  let requests = 0;
  let n = 0;
  const event = (call: Record<string, unknown>) =>
    callToSpecEvent(
      { ...call, userId: `conformance-${runId}`, messageId: `conformance-${runId}-${++n}` } as unknown as Call,
      Date.now(),
    );
  const send = async (method: 'POST' | 'PUT' | 'PATCH', body: string, signature: string | null) => {
    const headers: Record<string, string> = {
      ...s.headers,
      'user-agent': ACTIONS_USER_AGENT,
      'content-type': 'application/json',
    };
    if (signature !== null) headers['x-signature'] = signature;
    const r = await probe({ url: s.url, method, headers, body, timeoutMs: s.timeoutMs, keepAlive: true });
    if (++requests === 1 && r.kind === 'failure' && !r.timedOut)
      throw new ConformanceUnreachableError(shownUrl, r.code, r.error);
    return r;
  };
  const record = (
    id: string,
    level: ConformanceLevel,
    title: string,
    expected: string,
    passed: boolean,
    r: ProbeResult,
    detail: string,
  ) => {
    const result: ConformanceCaseResult = {
      id,
      level,
      title,
      expected,
      passed,
      status: r.kind === 'answer' ? r.status : null,
      durationMs: r.durationMs,
      detail,
    };
    cases.push(result);
    s.onCase?.(result, cases.length, ACTIONS_CONFORMANCE_CASE_COUNT);
  };
  // MUST: whole Segment events by each method Actions uses.
  const whole: Array<['POST' | 'PUT' | 'PATCH', Record<string, unknown>]> = [
    ['PUT', { type: 'track', event: 'Order Completed', properties: { order_id: 'o-1', revenue: 42.5 } }],
    ['PATCH', { type: 'identify', traits: { email: 'ada@example.com', plan: 'pro' } }],
    ['POST', { type: 'page', name: 'Pricing', properties: { url: 'https://example.com/pricing' } }],
  ];
  for (const [method, call] of whole) {
    const body = JSON.stringify(event(call));
    const r = await send(method, body, sign(body, s.secret));
    const passed = is2xx(r) && r.durationMs <= s.timeoutMs;
    record(
      `actions-${method.toLowerCase()}`,
      'MUST',
      `${method} of a whole ${String(call.type)} event, signed`,
      `2xx within ${s.timeoutMs} ms`,
      passed,
      r,
      passed
        ? observed(r)
        : `${observed(r)}; Webhooks (Actions) sends ${method} when the mapping says so: accept POST, PUT and PATCH`,
    );
  }
  // MUST: a mapped payload is any JSON object, not a Segment event.
  {
    const body = JSON.stringify({ order_id: `o-${runId}`, total: 42.5, customer: { email: 'ada@example.com' } });
    const r = await send('POST', body, sign(body, s.secret));
    record(
      'actions-mapped-payload',
      'MUST',
      'a mapped payload (no Segment event fields), signed',
      '2xx',
      is2xx(r),
      r,
      is2xx(r)
        ? observed(r)
        : `${observed(r)}; a mapping's data is any JSON object: do not require type, messageId or a classic message shape`,
    );
  }
  // MUST: a wrong signature is refused.
  {
    const body = JSON.stringify(event({ type: 'track', event: 'Forged' }));
    const r = await send('PUT', body, randomBytes(20).toString('hex'));
    record(
      'actions-wrong-signature',
      'MUST',
      'X-Signature of 40 random hex digits',
      '4xx',
      is4xx(r),
      r,
      is4xx(r) ? observed(r) : `${observed(r)} instead of a 4xx: the receiver accepts a forged request`,
    );
  }
  // MUST: a retry of a handled event is acknowledged.
  {
    const body = JSON.stringify(event({ type: 'track', event: 'Retried' }));
    const first = await send('PUT', body, sign(body, s.secret));
    const second = await send('PUT', body, sign(body, s.secret));
    const passed = is2xx(first) && is2xx(second);
    record(
      'actions-duplicate',
      'MUST',
      'the same signed delivery twice (a retry)',
      '2xx both times',
      passed,
      second,
      `first ${observed(first)}, second ${observed(second)}${passed ? '' : '; a retry of a handled event must be acknowledged'}`,
    );
  }
  // MUST: a batch is refused by default: its X-Signature (3.387.0) covers only the first element.
  {
    const elements = [
      { order_id: `b1-${runId}`, total: 1 },
      { order_id: `b2-${runId}`, total: 2 },
    ];
    const r = await send('POST', JSON.stringify(elements), sign(JSON.stringify(elements[0]), s.secret));
    record(
      'actions-batch-refused',
      'MUST',
      'a batch (JSON array) signed over its first element only, as Segment signs it',
      '4xx',
      is4xx(r),
      r,
      is4xx(r)
        ? observed(r)
        : `${observed(r)} instead of a 4xx: a batch's X-Signature covers only its first element, so anyone holding one signed event can append forged ones; refuse batches (turn enable_batching off in the mapping), or accept them only by opting in by name`,
    );
  }
  return conformanceReport({ url: shownUrl, cases, caseCount: ACTIONS_CONFORMANCE_CASE_COUNT, startedAt, started });
}
