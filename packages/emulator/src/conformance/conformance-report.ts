import type { ConformanceCaseResult, ConformanceReport } from './conformance-types.js';

/**
 * A conformance run's report from its case results: `ok` when every MUST case passed and the run was
 * not stopped early, the counts, and the run's start and duration.
 *
 * @example
 * return conformanceReport({ url: shownUrl, cases, caseCount: 20, startedAt, started });
 */
export function conformanceReport(run: {
  /** The receiver's URL as shown (password and query token masked). */
  url: string;
  cases: ConformanceCaseResult[];
  /** How many cases the suite has (those not run count as `notRun`). */
  caseCount: number;
  /** Why the run stopped before its last case, when it did. */
  stoppedEarly?: string | undefined;
  startedAt: string;
  /** `performance.now()` at the start. */
  started: number;
}): ConformanceReport {
  const { cases, stoppedEarly } = run;
  const mustFailed = cases.filter((c) => c.level === 'MUST' && !c.passed).length;
  const shouldFailed = cases.filter((c) => c.level === 'SHOULD' && !c.passed).length;
  return {
    url: run.url,
    ok: mustFailed === 0 && stoppedEarly === undefined,
    cases,
    counts: {
      passed: cases.length - mustFailed - shouldFailed,
      mustFailed,
      shouldFailed,
      notRun: run.caseCount - cases.length,
    },
    ...(stoppedEarly !== undefined ? { stoppedEarly } : {}),
    startedAt: run.startedAt,
    durationMs: Math.round(performance.now() - run.started),
  };
}
