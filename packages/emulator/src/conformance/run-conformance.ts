import { randomBytes } from 'node:crypto';
import { sign } from '@hookgate/core';
import type { CaseIds } from './case-messages.js';
import { CONFORMANCE_CASE_COUNT, runClassicCases, type CasePostInit } from './classic-cases.js';
import { conformanceSettings } from './conformance-settings.js';
import { conformanceReport } from './conformance-report.js';
import type { ConformanceCaseResult, ConformanceOptions, ConformanceReport } from './conformance-types.js';
import { redactUrl } from '../redact.js';
import { probe } from './http-probe.js';
import { runActionsConformance } from './actions-conformance.js';
import { ConformanceUnreachableError } from './unreachable-error.js';

export { CONFORMANCE_DEFAULTS } from './conformance-settings.js';
export { CONFORMANCE_CASE_COUNT } from './classic-cases.js';

/** The `User-Agent` the suite sends, as the sender does. */
export const CONFORMANCE_USER_AGENT = 'Segment.io/1.0';

/** Requests in a row that time out before the run stops: the receiver is too slow for any case to pass. */
export const CONSECUTIVE_TIMEOUTS_TO_STOP = 3;

/** Stops the run early: the receiver is too slow for any case to pass. */
class StopRun extends Error {}

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
  const s = conformanceSettings(options);
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

  let requests = 0;
  let timeoutsInARow = 0;
  let stoppedEarly: string | undefined;
  const post = async (body: string | Buffer, init: CasePostInit = {}) => {
    const headers: Record<string, string> = {
      ...s.headers,
      'user-agent': CONFORMANCE_USER_AGENT,
      'content-type': init.contentType ?? 'application/json',
    };
    const signature = init.signature === undefined ? sign(body, s.secret) : init.signature;
    if (signature !== null) headers['x-signature'] = signature;
    const r = await probe({ url: s.url, headers, body, timeoutMs: s.timeoutMs, keepAlive: true });
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

  let stopped: string | undefined;
  try {
    await runClassicCases({ settings: s, ids, post, push });
  } catch (error) {
    if (!(error instanceof StopRun)) throw error;
    stopped = error.message;
  }
  return conformanceReport({
    url: shownUrl,
    cases,
    caseCount: CONFORMANCE_CASE_COUNT,
    stoppedEarly: stopped,
    startedAt,
    started,
  });
}
