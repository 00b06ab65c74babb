/**
 * How binding a conformance case is: a MUST failure fails the run; a SHOULD failure is reported only.
 *
 * @example
 * const musts = report.cases.filter((c) => c.level === 'MUST');
 */
export type ConformanceLevel = 'MUST' | 'SHOULD';

/**
 * Options of `runConformance`.
 *
 * @example
 * const options: ConformanceOptions = { url: 'http://127.0.0.1:3000/webhooks', secret: 's3cret', delivered: () => receiver.seen };
 */
export interface ConformanceOptions {
  /**
   * Which destination the receiver implements: `classic` (default, Webhooks (Classic)) or `actions`
   * (Webhooks (Actions): PUT/PATCH/POST, whole events and mapped payloads, batches refused).
   */
  destination?: 'classic' | 'actions';
  /**
   * The receiver's full webhook URL (http or https; self-signed certificates are refused, as by the
   * sender). When its first request cannot reach it at all, the run throws a `ConformanceUnreachableError`.
   * The report shows it masked (no password, no query value).
   */
  url: string;
  /** The shared secret the receiver verifies with. */
  secret: string;
  /** Static headers sent with every request, as the destination's per-endpoint headers. Default none. */
  headers?: Record<string, string>;
  /** How long to wait for each answer before counting it as a timeout. Default 5000 (the sender's budget). Three timeouts in a row stop the run. */
  timeoutMs?: number;
  /** The SHOULD case "answers well under 5 s" passes when every signed delivery was answered within this. Default 1000. */
  quickMs?: number;
  /** Size in bytes of the oversize body (expected 413). Default 2 MiB: above any sane webhook body limit. */
  oversizeBytes?: number;
  /**
   * In-process only: the messages the receiver's handler saw (e.g. an example receiver's `seen`). When
   * given, every refused request is also checked to have never reached the handler.
   */
  delivered?: () => readonly unknown[];
  /**
   * Called after each case with its result, its position (1-based) and the number of cases in a full
   * run: for a progress line per case.
   */
  onCase?: (result: ConformanceCaseResult, index: number, total: number) => void;
}

/** The outcome of one case. @example for (const c of report.cases) if (!c.passed) console.log(c.level, c.id, c.detail); */
export interface ConformanceCaseResult {
  /** Stable id, e.g. `signed-track`, `wrong-secret`, `raw-body-number-format`. */
  id: string;
  level: ConformanceLevel;
  title: string;
  /** What the receiver should answer, e.g. `2xx within 5000 ms`. */
  expected: string;
  passed: boolean;
  /** The status of the case's main request; `null` when nothing came back or the case sends none. */
  status: number | null;
  /** Time of the case's main request, in ms. */
  durationMs: number;
  /** What was observed, and on failure what to fix. */
  detail: string;
}

/** The outcome of a run. @example const { ok, counts } = await runConformance({ url, secret }); */
export interface ConformanceReport {
  url: string;
  /** `true` when every MUST case passed. */
  ok: boolean;
  cases: ConformanceCaseResult[];
  counts: { passed: number; mustFailed: number; shouldFailed: number; notRun: number };
  /**
   * Why the run stopped before its last case, when it did (3 requests in a row timed out): the cases
   * not run count in `counts.notRun`, and `ok` is false.
   */
  stoppedEarly?: string;
  startedAt: string;
  durationMs: number;
}
