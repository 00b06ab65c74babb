// The retry policy's rules where real HTTP cannot reach them: an informational (1xx) status as a final
// answer, the edges of Retry-After parsing, and the validation of `responsePolicy.actions`. The wire
// behaviour is pinned in retry-policy.test.ts.
import { describe, expect, it } from 'vitest';
import { createEmulator, SettingsError } from '@hookgate/emulator';
import { classifyError, classifyStatus } from '../../src/delivery/response-policy.js';
import { backoffDelay, retryAfterMs } from '../../src/delivery/retry-schedule.js';
import { actionsPolicyOf } from '../../src/actions/actions-response-policy.js';
import {
  ACTIONS_FINAL_STATUSES,
  ACTIONS_RETRY_STATUSES,
  resolveActionsResponsePolicy,
} from '../../src/actions/actions-response-settings.js';

const POLICY = {
  retryStatuses: [408, 429],
  clientErrors: 'fail',
  redirects: 'fail',
  honorRetryAfter: true,
  tlsErrors: 'fail',
  actions: resolveActionsResponsePolicy(undefined),
} as const;
const policy = () => ({ ...POLICY, retryStatuses: [...POLICY.retryStatuses] });
const NOW = Date.parse('2026-03-02T10:00:00.000Z');

describe('response classification', () => {
  it('retries a 1xx or any status below 200 that ends an exchange (never delivered)', () => {
    const p = policy(); // one policy for all: each status line gets its own verdict
    for (const status of [0, 100, 199]) {
      expect(classifyStatus(status, undefined, undefined, p), `status ${status}`).toEqual({
        outcome: 'retry',
        error: { code: 'http', message: String(status) },
      });
    }
  });

  it('labels the error with the status text when there is one', () => {
    expect(classifyStatus(502, 'Bad Gateway', undefined, policy())).toMatchObject({
      error: { message: '502 Bad Gateway' },
    });
    expect(classifyStatus(502, '', undefined, policy())).toMatchObject({ error: { message: '502' } });
  });

  it('gives the same verdict for the same status line each time, worded with its status text', () => {
    const p = policy();
    const first = classifyStatus(503, 'Service Unavailable', undefined, p);
    expect(classifyStatus(503, 'Service Unavailable', undefined, p)).toEqual(first);
    expect(classifyStatus(503, 'Slow Down', undefined, p)).toMatchObject({ error: { message: '503 Slow Down' } });
  });

  it('finals: aborted fails, tls per tlsErrors, timeouts and connection errors retry', () => {
    const error = (code: string) => ({ code, message: code }) as Parameters<typeof classifyError>[0];
    expect(classifyError(error('aborted'), { ...policy(), tlsErrors: 'retry' }).outcome).toBe('fail');
    expect(classifyError(error('tls'), policy()).outcome).toBe('fail');
    expect(classifyError(error('tls'), { ...policy(), tlsErrors: 'retry' }).outcome).toBe('retry');
    expect(classifyError(error('timeout'), policy()).outcome).toBe('retry');
    expect(classifyError(error('connection'), policy()).outcome).toBe('retry');
  });
});

describe('Retry-After and the backoff', () => {
  it('reads delay-seconds, surrounding spaces allowed', () => {
    expect(retryAfterMs('120', NOW)).toBe(120_000);
    expect(retryAfterMs(' 7 ', NOW)).toBe(7000);
    expect(retryAfterMs('0', NOW)).toBe(0);
  });

  it('reads an HTTP date relative to now; a past date is no wait', () => {
    expect(retryAfterMs('Mon, 02 Mar 2026 10:01:30 GMT', NOW)).toBe(90_000);
    expect(retryAfterMs('Mon, 02 Mar 2026 09:59:00 GMT', NOW)).toBe(0);
  });

  it('reads nothing from an absent, empty or malformed value', () => {
    for (const value of [undefined, '', 'soon', '12abc', 'abc12', '1.5e3x']) {
      expect(retryAfterMs(value, NOW), `Retry-After: ${String(value)}`).toBeUndefined();
    }
  });

  it('spreads the delay by the jitter under the exponential cap', () => {
    const retry = { windowMs: 1e9, initialDelayMs: 1000, factor: 3, maxDelayMs: 5000, jitter: 'none' } as const;
    const at = (n: number, jitter: 'none' | 'equal' | 'full', random = 0.5) =>
      backoffDelay(n, { ...retry, jitter, random: () => random });
    expect([1, 2, 3].map((n) => at(n, 'none'))).toEqual([1000, 3000, 5000]);
    expect(at(0, 'none')).toBe(1000);
    expect(at(2, 'equal', 0)).toBe(1500);
    expect(at(2, 'equal', 0.5)).toBe(2250);
    expect(at(2, 'full', 0.5)).toBe(1500);
    expect(at(2, 'full', 0)).toBe(0);
  });
});

describe('the Actions response policy (Segment rule for destinations)', () => {
  const actions = actionsPolicyOf(policy(), policy().actions);

  it('retries 408, 410, 429, 460 and the 5xx; fails 501, 505 and other 4xx at once', () => {
    expect(ACTIONS_RETRY_STATUSES).toEqual([408, 410, 429, 460]);
    expect(ACTIONS_FINAL_STATUSES).toEqual([501, 505]);
    for (const status of [408, 410, 429, 460, 500, 502, 503]) {
      expect(actions.judgeAnswer(status, undefined, undefined).outcome, `status ${status}`).toBe('retry');
    }
    for (const status of [400, 404, 409, 501, 505]) {
      expect(actions.judgeAnswer(status, undefined, undefined).outcome, `status ${status}`).toBe('fail');
    }
    expect(actions.judgeAnswer(200, 'OK', undefined).outcome).toBe('delivered');
  });

  it('names the setting in the reason of a final 5xx', () => {
    expect(actions.judgeAnswer(501, 'Not Implemented', undefined)).toEqual({
      outcome: 'fail',
      error: {
        code: 'http',
        message:
          '501 Not Implemented: Segment does not retry this status for Actions destinations (responsePolicy.actions.finalStatuses)',
      },
    });
    expect(actions.judgeAnswer(505, undefined, undefined)).toMatchObject({
      error: { message: expect.stringMatching(/^505: Segment does not retry/) as unknown },
    });
  });

  it('takes its own lists from responsePolicy.actions, and the defaults when a policy has none', () => {
    const custom = actionsPolicyOf(policy(), { retryStatuses: [409], finalStatuses: [503] });
    expect(custom.judgeAnswer(409, undefined, undefined).outcome).toBe('retry');
    expect(custom.judgeAnswer(410, undefined, undefined).outcome).toBe('fail');
    expect(custom.judgeAnswer(503, undefined, undefined).outcome).toBe('fail');
    expect(custom.judgeAnswer(501, undefined, undefined).outcome).toBe('retry');
    const { actions: _, ...withoutActions } = policy();
    const defaults = actionsPolicyOf(withoutActions, undefined);
    expect(defaults.judgeAnswer(460, undefined, undefined).outcome).toBe('retry');
    expect(defaults.judgeAnswer(505, undefined, undefined).outcome).toBe('fail');
  });

  it('fills the defaults and keeps given lists (copies, not the caller’s arrays)', () => {
    expect(resolveActionsResponsePolicy(undefined)).toEqual({
      retryStatuses: [408, 410, 429, 460],
      finalStatuses: [501, 505],
    });
    expect(resolveActionsResponsePolicy({ retryStatuses: [400, 499] })).toEqual({
      retryStatuses: [400, 499],
      finalStatuses: [501, 505],
    });
    expect(resolveActionsResponsePolicy({ finalStatuses: [500, 599] })).toEqual({
      retryStatuses: [408, 410, 429, 460],
      finalStatuses: [500, 599],
    });
    const given = [429];
    const resolved = resolveActionsResponsePolicy({ retryStatuses: given });
    given.push(400);
    expect(resolved.retryStatuses).toEqual([429]);
  });

  it('rejects a bad responsePolicy.actions, naming the field and the fix', () => {
    const reject = (actions: unknown) => {
      try {
        createEmulator({ responsePolicy: { actions: actions as never } });
      } catch (e) {
        expect(e).toBeInstanceOf(SettingsError);
        return (e as Error).message;
      }
      throw new Error('accepted');
    };
    for (const bad of [null, [], 'x']) {
      expect(reject(bad)).toMatch(/responsePolicy\.actions.*must be an object \{ retryStatuses\?, finalStatuses\? \}/);
    }
    expect(reject({ retry: [] })).toMatch(
      /responsePolicy\.actions\.retry.*unknown setting \(known: retryStatuses, finalStatuses\)/,
    );
    for (const bad of [[399], [500], [408.5], '408', ['408']]) {
      expect(reject({ retryStatuses: bad })).toMatch(
        /responsePolicy\.actions\.retryStatuses.*must be a list of HTTP status codes from 400 to 499, e\.g\. \[408, 410, 429, 460\]/,
      );
    }
    for (const bad of [[499], [600]]) {
      expect(reject({ finalStatuses: bad })).toMatch(
        /responsePolicy\.actions\.finalStatuses.*must be a list of HTTP status codes from 500 to 599, e\.g\. \[501, 505\]/,
      );
    }
  });
});
