import { randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { MESSAGE_TYPES, sign } from '@hookgate/core';
import { caseMessage, RAW_BODY_VARIANTS, type CaseIds } from './case-messages.js';
import type {
  ConformanceCaseResult,
  ConformanceLevel,
  ConformanceOptions,
  ConformanceReport,
} from './conformance-types.js';
import { redactUrl } from '../redact.js';
import { probe, type ProbeResult } from './http-probe.js';
import { runActionsConformance } from './actions-conformance.js';
import { ConformanceUnreachableError } from './unreachable-error.js';

/** The `User-Agent` the suite sends, as the sender does. */
export const CONFORMANCE_USER_AGENT = 'Segment.io/1.0';

/** Defaults of the suite's options. @example runConformance({ url, secret, quickMs: CONFORMANCE_DEFAULTS.quickMs * 2 }); */
export const CONFORMANCE_DEFAULTS = Object.freeze({ timeoutMs: 5000, quickMs: 1000, oversizeBytes: 2 * 1024 * 1024 });

interface Settings {
  url: URL;
  secret: string;
  headers: Record<string, string>;
  timeoutMs: number;
  quickMs: number;
  oversizeBytes: number;
  delivered: (() => readonly unknown[]) | undefined;
  onCase: ConformanceOptions['onCase'];
}

/** The number of cases a full run has. */
export const CONFORMANCE_CASE_COUNT = MESSAGE_TYPES.length + 4 + 1 + 3 + RAW_BODY_VARIANTS.length + 1;

/** Requests in a row that time out before the run stops: the receiver is too slow for any case to pass. */
export const CONSECUTIVE_TIMEOUTS_TO_STOP = 3;

function wholeNumber(options: ConformanceOptions, name: 'timeoutMs' | 'quickMs' | 'oversizeBytes'): number {
  const value = options[name];
  if (value === undefined) return CONFORMANCE_DEFAULTS[name];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new RangeError(
      `runConformance option ${name} must be a whole number above 0 (got ${JSON.stringify(value)}); default ${CONFORMANCE_DEFAULTS[name]}.`,
    );
  }
  return value;
}

function settings(options: ConformanceOptions): Settings {
  if (typeof options !== 'object' || options === null)
    throw new TypeError('runConformance takes an options object: { url, secret }.');
  let url: URL;
  try {
    url = new URL(String(options.url));
  } catch {
    throw new TypeError(
      `runConformance option url must be the receiver's full http(s) URL, e.g. http://127.0.0.1:3000/webhooks (got ${JSON.stringify(options.url)}).`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`runConformance option url must use http or https (got ${JSON.stringify(url.protocol)}).`);
  }
  if (typeof options.secret !== 'string' || options.secret.length === 0) {
    throw new TypeError("runConformance option secret must be the receiver's shared secret, a non-empty string.");
  }
  const headers = options.headers ?? {};
  if (typeof headers !== 'object' || headers === null || Object.values(headers).some((v) => typeof v !== 'string')) {
    throw new TypeError('runConformance option headers must be an object of header name → string value.');
  }
  if (options.delivered !== undefined && typeof options.delivered !== 'function') {
    throw new TypeError('runConformance option delivered must be a function returning the messages the handler saw.');
  }
  if (options.onCase !== undefined && typeof options.onCase !== 'function') {
    throw new TypeError('runConformance option onCase must be a function called with each case result.');
  }
  return {
    url,
    secret: options.secret,
    headers,
    timeoutMs: wholeNumber(options, 'timeoutMs'),
    quickMs: wholeNumber(options, 'quickMs'),
    oversizeBytes: wholeNumber(options, 'oversizeBytes'),
    delivered: options.delivered,
    onCase: options.onCase,
  };
}

const is2xx = (r: ProbeResult) => r.kind === 'answer' && r.status >= 200 && r.status < 300;
const is4xx = (r: ProbeResult) => r.kind === 'answer' && r.status >= 400 && r.status < 500;
const statusOf = (r: ProbeResult) => (r.kind === 'answer' ? r.status : null);
const observed = (r: ProbeResult) =>
  r.kind === 'answer' ? `answered ${r.status} in ${r.durationMs} ms` : r.timedOut ? r.error : `no answer: ${r.error}`;

/** Why a request that should have been refused (4xx) was not, worded for what really came back. */
function notRefused(r: ProbeResult): string {
  if (r.kind === 'failure') {
    return r.timedOut
      ? `${r.error} instead of a 4xx: refuse a bad signature at once, before any slow work`
      : `${observed(r)} instead of a 4xx`;
  }
  if (r.status >= 200 && r.status < 300)
    return `${observed(r)} instead of a 4xx: the receiver accepts a forged request`;
  if (r.status >= 500)
    return `${observed(r)} instead of a 4xx: the sender retries a 5xx for hours, and the request can never succeed`;
  return `${observed(r)} instead of a 4xx`;
}

/** Stops the run early: the receiver is too slow for any case to pass. */
class StopRun extends Error {}

/** An answer saying "already handled": the receiver remembered the message as delivered. */
function isDuplicateAnswer(r: ProbeResult): boolean {
  if (r.kind !== 'answer') return false;
  try {
    const body = JSON.parse(r.body) as { duplicate?: unknown; code?: unknown };
    return body.duplicate === true || body.code === 'duplicate';
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs the receiver conformance suite: real signed (and deliberately broken) requests to a receiver,
 * each case reported pass/fail with its observed status and time.
 *
 * MUST: every message type signed correctly → 2xx within 5 s; missing signature, wrong signature,
 * wrong secret, tampered body → 4xx, and the genuine message sent next is still handled (not answered
 * as a duplicate: the refused one was not counted as delivered); the same delivery twice → 2xx both
 * times. SHOULD: malformed JSON → 400; wrong content type → 415; oversize → 413; bodies whose bytes
 * `JSON.stringify` would not reproduce → 2xx (raw-body verification); every answer well under 5 s.
 *
 * @example
 * import { runConformance } from '@hookgate/emulator';
 * const report = await runConformance({ url: 'http://127.0.0.1:3000/webhooks', secret: process.env.WEBHOOK_SECRET! });
 * if (!report.ok) process.exitCode = 1;
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const s = settings(options);
  const destination = options.destination ?? 'classic';
  if (destination !== 'classic' && destination !== 'actions')
    throw new TypeError(
      `runConformance option destination must be "classic" or "actions" (got ${JSON.stringify(destination)}).`,
    );
  if (destination === 'actions')
    return runActionsConformance({
      url: s.url,
      secret: s.secret,
      headers: s.headers,
      timeoutMs: s.timeoutMs,
      onCase: s.onCase,
    });
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const runId = randomBytes(4).toString('hex');
  const cases: ConformanceCaseResult[] = [];
  let n = 0;
  const ids = (caseId: string): CaseIds => ({
    userId: `conformance-${runId}-${caseId}`,
    messageId: `conformance-${runId}-${++n}-${caseId}`,
    timestamp: new Date().toISOString(),
  });
  const shownUrl = redactUrl(s.url);
  const agent =
    s.url.protocol === 'https:'
      ? new https.Agent({ keepAlive: true, maxSockets: 1 })
      : new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    return await runCases();
  } finally {
    agent.destroy();
  }

  async function runCases(): Promise<ConformanceReport> {
    let stopped: string | undefined;
    try {
      await allCases();
    } catch (error) {
      if (!(error instanceof StopRun)) throw error;
      stopped = error.message;
    }
    const mustFailed = cases.filter((c) => c.level === 'MUST' && !c.passed).length;
    const shouldFailed = cases.filter((c) => c.level === 'SHOULD' && !c.passed).length;
    return {
      url: shownUrl,
      ok: mustFailed === 0 && stopped === undefined,
      cases,
      counts: {
        passed: cases.length - mustFailed - shouldFailed,
        mustFailed,
        shouldFailed,
        notRun: CONFORMANCE_CASE_COUNT - cases.length,
      },
      ...(stopped !== undefined ? { stoppedEarly: stopped } : {}),
      startedAt,
      durationMs: Math.round(performance.now() - started),
    };
  }

  async function allCases(): Promise<void> {
    let requests = 0;
    let timeoutsInARow = 0;
    let stoppedEarly: string | undefined;
    const post = async (body: string | Buffer, init: { signature?: string | null; contentType?: string } = {}) => {
      const headers: Record<string, string> = {
        ...s.headers,
        'user-agent': CONFORMANCE_USER_AGENT,
        'content-type': init.contentType ?? 'application/json',
      };
      const signature = init.signature === undefined ? sign(body, s.secret) : init.signature;
      if (signature !== null) headers['x-signature'] = signature;
      const r = await probe({ url: s.url, headers, body, timeoutMs: s.timeoutMs, agent });
      // A receiver that cannot be reached at all: one clear error instead of 20 failed cases.
      if (++requests === 1 && r.kind === 'failure' && !r.timedOut)
        throw new ConformanceUnreachableError(shownUrl, r.code, r.error);
      timeoutsInARow = r.kind === 'failure' && r.timedOut ? timeoutsInARow + 1 : 0;
      if (timeoutsInARow >= CONSECUTIVE_TIMEOUTS_TO_STOP && stoppedEarly === undefined) {
        stoppedEarly = `stopped early: ${timeoutsInARow} requests in a row got no answer within ${s.timeoutMs} ms; the sender gives up on each after 5 s and retries it for hours, so fix the receiver's speed first`;
      }
      return r;
    };
    const push = (result: ConformanceCaseResult) => {
      cases.push(result);
      s.onCase?.(result, cases.length, CONFORMANCE_CASE_COUNT);
      if (stoppedEarly !== undefined) throw new StopRun(stoppedEarly);
    };
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
}
