import { randomBytes } from 'node:crypto';
import { MESSAGE_TYPES, sign } from '@hookgate/core';
import { caseMessage, RAW_BODY_VARIANTS, type CaseIds } from './case-messages.js';
import type { ConformanceSettings } from './conformance-settings.js';
import type { ConformanceCaseResult, ConformanceLevel } from './conformance-types.js';
import type { ProbeResult } from './http-probe.js';
import { is2xx, is4xx, isDuplicateAnswer, notRefused, observed, statusOf } from './probe-verdicts.js';

/** The number of cases a full run has. */
export const CONFORMANCE_CASE_COUNT = MESSAGE_TYPES.length + 4 + 1 + 3 + RAW_BODY_VARIANTS.length + 1;

/** How a post is signed and labelled: `signature` null sends none, a string sends that one. */
export interface CasePostInit {
  signature?: string | null;
  contentType?: string;
}

/** What the cases need from the run that sends them. */
export interface ClassicCaseRun {
  readonly settings: ConformanceSettings;
  /** Fresh ids (userId, messageId, timestamp) for one case's message. */
  readonly ids: (caseId: string) => CaseIds;
  /** Posts a body as the sender does, signed with the secret unless `init.signature` says otherwise. */
  readonly post: (body: string | Buffer, init?: CasePostInit) => Promise<ProbeResult>;
  /** Reports one case's result (throws to stop the run early). */
  readonly push: (result: ConformanceCaseResult) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The cases of a Classic receiver, in order: every message type signed → 2xx (MUST); missing, wrong,
 * other-secret signatures and a tampered body → 4xx, not counted as delivered (MUST); the same
 * delivery twice → 2xx both times (MUST); malformed JSON 400, wrong content type 415, oversize 413,
 * raw-body verification, quick answers (SHOULD).
 */
export async function runClassicCases(run: ClassicCaseRun): Promise<void> {
  const { settings: s, ids, post, push } = run;
  const record = (
    id: string,
    level: ConformanceLevel,
    title: string,
    expected: string,
    passed: boolean,
    r: ProbeResult | null,
    detail: string,
  ) => {
    push({
      id,
      level,
      title,
      expected,
      passed,
      status: r ? statusOf(r) : null,
      durationMs: r ? r.durationMs : 0,
      detail,
    });
  };

  // MUST: every type, signed correctly → 2xx within the sender's budget.
  const signedTimes: number[] = [];
  for (const type of MESSAGE_TYPES) {
    const id = `signed-${type}`;
    const r = await post(JSON.stringify(caseMessage(type, ids(id))));
    const passed = is2xx(r) && r.durationMs <= s.timeoutMs;
    signedTimes.push(r.kind === 'answer' ? r.durationMs : Number.POSITIVE_INFINITY);
    record(
      id,
      'MUST',
      `${type} message, signed correctly`,
      `2xx within ${s.timeoutMs} ms`,
      passed,
      r,
      passed
        ? observed(r)
        : `${observed(r)}; a correctly signed ${type} must be accepted, or the sender retries it for hours`,
    );
  }

  // MUST: refused requests → 4xx, and not counted as delivered.
  const tamper = (body: string) => {
    const value = JSON.parse(body) as { properties?: Record<string, unknown> };
    return JSON.stringify({ ...value, properties: { ...value.properties, revenue: 4250 } });
  };
  const refusals: Array<{ id: string; title: string; send: (genuine: string) => Promise<ProbeResult> }> = [
    { id: 'missing-signature', title: 'no X-Signature header', send: (body) => post(body, { signature: null }) },
    {
      id: 'wrong-signature',
      title: 'X-Signature of 40 random hex digits',
      send: (body) => post(body, { signature: randomBytes(20).toString('hex') }),
    },
    {
      id: 'wrong-secret',
      title: 'signed with another secret',
      send: (body) => post(body, { signature: sign(body, `${s.secret}-not-the-secret`) }),
    },
    {
      id: 'tampered-body',
      title: 'body changed after signing',
      send: (body) => post(tamper(body), { signature: sign(body, s.secret) }),
    },
  ];
  for (const refusal of refusals) {
    const i = ids(refusal.id);
    const genuine = JSON.stringify(caseMessage('track', i));
    const r = await refusal.send(genuine);
    const problems: string[] = [];
    if (!is4xx(r)) problems.push(notRefused(r));
    if (s.delivered) {
      await sleep(25);
      const reached = s.delivered().some((m) => (m as { messageId?: unknown }).messageId === i.messageId);
      if (reached) problems.push('the refused message reached the handler');
    }
    const follow = await post(genuine);
    if (!is2xx(follow)) problems.push(`the genuine message sent next was ${observed(follow)}, not 2xx`);
    else if (isDuplicateAnswer(follow))
      problems.push(
        'the genuine message sent next was answered as a duplicate: the refused one was counted as delivered',
      );
    record(
      refusal.id,
      'MUST',
      refusal.title,
      '4xx, not counted as delivered',
      problems.length === 0,
      r,
      problems.length === 0
        ? `${observed(r)}; the genuine message sent next was ${observed(follow)}`
        : problems.join('; '),
    );
  }

  // MUST: the same delivery twice (a retry) → 2xx both times.
  {
    const body = JSON.stringify(caseMessage('track', ids('duplicate')));
    const first = await post(body);
    const second = await post(body);
    const passed = is2xx(first) && is2xx(second);
    record(
      'duplicate-delivery',
      'MUST',
      'the same signed delivery twice (a retry)',
      '2xx both times',
      passed,
      second,
      passed
        ? `first ${observed(first)}, second ${observed(second)}`
        : `first ${observed(first)}, second ${observed(second)}; a retry of a handled message must be acknowledged, or the sender keeps retrying it`,
    );
  }

  // SHOULD: precise refusals.
  {
    const body = JSON.stringify(caseMessage('track', ids('malformed-json'))).slice(0, -7);
    const r = await post(body);
    const passed = statusOf(r) === 400;
    record(
      'malformed-json',
      'SHOULD',
      'signed body that is not JSON',
      '400',
      passed,
      r,
      passed
        ? observed(r)
        : `${observed(r)}; a body that is not JSON should get 400 (a 5xx makes the sender retry a request that can never succeed)`,
    );
  }
  {
    const body = JSON.stringify(caseMessage('track', ids('wrong-content-type')));
    const r = await post(body, { contentType: 'text/plain; charset=utf-8' });
    const passed = statusOf(r) === 415;
    record(
      'wrong-content-type',
      'SHOULD',
      'Content-Type text/plain',
      '415',
      passed,
      r,
      passed ? observed(r) : `${observed(r)}; a body that is not declared JSON should get 415`,
    );
  }
  {
    const message = caseMessage('track', ids('oversize')) as Record<string, unknown>;
    const shell = JSON.stringify({ ...message, properties: { padding: '' } });
    const padding = 'x'.repeat(Math.max(0, s.oversizeBytes - Buffer.byteLength(shell)));
    const body = JSON.stringify({ ...message, properties: { padding } });
    const r = await post(body);
    const passed = statusOf(r) === 413;
    record(
      'oversize-body',
      'SHOULD',
      `body of ${Buffer.byteLength(body)} bytes`,
      '413',
      passed,
      r,
      passed
        ? observed(r)
        : `${observed(r)}; cap the body size (the sender's calls are at most 32 KB) and answer 413 above it`,
    );
  }

  // SHOULD: raw-body verification.
  for (const variant of RAW_BODY_VARIANTS) {
    const body = variant.build(ids(variant.id));
    const r = await post(body);
    const passed = is2xx(r);
    record(
      variant.id,
      'SHOULD',
      `signed over raw bytes: ${variant.title}`,
      '2xx',
      passed,
      r,
      passed
        ? observed(r)
        : `${observed(r)}; verify the HMAC over the raw body bytes, before any JSON parser re-serializes them`,
    );
  }

  // SHOULD: answers well under the 5 s budget.
  {
    const slowest = Math.max(...signedTimes);
    const passed = slowest <= s.quickMs;
    push({
      id: 'quick-answer',
      level: 'SHOULD',
      title: 'signed deliveries answered well under 5 s',
      expected: `every one within ${s.quickMs} ms`,
      passed,
      status: null,
      durationMs: Number.isFinite(slowest) ? slowest : s.timeoutMs,
      detail: Number.isFinite(slowest)
        ? `slowest answer ${slowest} ms${passed ? '' : '; acknowledge first and do slow work in the background'}`
        : `a signed delivery got no answer within ${s.timeoutMs} ms (timed out)`,
    });
  }
}
