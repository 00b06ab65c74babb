import type { Attempt, CancelledRetry, DeliveryRecord } from '../log/delivery-record.js';
import { isBatchStandIn } from '../actions/batch-stand-in.js';
import { endpointOutcome, notRetriedWords } from '../log/endpoint-outcome.js';
import { redactText } from '../redact.js';
import { escapeControls } from './escape-controls.js';
import { flagHint } from './serve-options.js';
import { painter, statusStyle, type Style } from './terminal-style.js';

/** Per-endpoint figures of a `serve` session. */
export interface EndpointSummary {
  endpoint: string;
  attempts: number;
  delivered: number;
  failed: number;
  pending: number;
  /** Records that failed there and were not retried because another endpoint accepted them. */
  notRetried: number;
}

const two = (n: number) => String(n).padStart(2, '0');

/** `HH:MM:SS.mmm` in local time. */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

/** An emulator message as `serve` shows it: no credential, and options named by their flags. */
export function shown(text: string): string {
  return flagHint(redactText(text));
}

/**
 * A message or value as `serve`'s text output prints it: `shown`, with every control character
 * escaped (`escapeControls`), so nothing from an endpoint or a call can forge a line.
 *
 * @example
 * printable('503 oops\r\n12:00:00 dlv_1 delivered'); // one line
 */
export function printable(text: string): string {
  return escapeControls(shown(text));
}

/** When an attempt ended: its start on the clock plus its duration, unless the caller knows better. */
function endOf(attempt: Attempt): number {
  return Date.parse(attempt.at) + attempt.durationMs;
}

/** What follows an attempt at its endpoint, in words: `not retried: endpoint 1 accepted` when another endpoint had accepted. */
function outcomeWords(attempt: Attempt): string {
  switch (attempt.outcome) {
    case 'delivered':
      return 'delivered';
    case 'retry':
      return 'will retry';
    case 'not-retried':
      return `not retried: ${attempt.notRetriedBecause ?? notRetriedWords(undefined)}`;
    default:
      return 'gave up';
  }
}

const OUTCOME_STYLE: Record<Attempt['outcome'], Style> = {
  delivered: 'green',
  retry: 'yellow',
  'not-retried': 'yellow',
  fail: 'red',
};

/**
 * One line of `serve`'s live log for an attempt, printed when it ends: the time it ended, the
 * delivery id (what `hookgate replay` takes), type, endpoint, status (or error), duration, and what
 * follows at that endpoint (delivered, will retry, gave up, or `not retried: endpoint 1 accepted`
 * when another endpoint had already accepted the message). Lines print in the order attempts end,
 * so their times never go backwards.
 *
 * @example
 * emulator.on('attempt', (a, r) => console.log(formatAttemptLine(a, r, true, Date.now())));
 */
export function formatAttemptLine(
  attempt: Attempt,
  record: Pick<DeliveryRecord, 'type'>,
  color: boolean,
  endedAt: number = endOf(attempt),
): string {
  const paint = painter(color);
  const status = attempt.status !== undefined ? String(attempt.status) : (attempt.error?.code ?? 'error');
  const error =
    attempt.error && (attempt.status === undefined || attempt.outcome === 'fail')
      ? `  ${printable(attempt.error.message)}`
      : '';
  return [
    paint('dim', clockTime(endedAt)),
    attempt.recordId,
    record.type.padEnd(8),
    printable(attempt.endpoint),
    paint(statusStyle(attempt.status), status.padStart(3)),
    `${Math.round(attempt.durationMs)} ms`.padStart(7),
    paint(OUTCOME_STYLE[attempt.outcome], outcomeWords(attempt)) +
      (attempt.round > 1 ? paint('dim', ` (round ${attempt.round})`) : '') +
      error,
  ].join('  ');
}

/**
 * An attempt as one `--json` line: when it started and ended, the record, the endpoint (masked),
 * the answer or error, and the outcome; `notRetriedBecause` (`endpoint 1 accepted`, else null) when
 * the outcome is `not-retried`. No body, no header, no signature.
 *
 * @example
 * emulator.on('attempt', (a, r) => writeJsonLine(process.stdout, attemptJson(a, r, Date.now())));
 */
export function attemptJson(
  attempt: Attempt,
  record: Pick<DeliveryRecord, 'type'>,
  endedAt: number = endOf(attempt),
): Record<string, unknown> {
  return {
    event: 'attempt',
    startedAt: attempt.at,
    endedAt: new Date(endedAt).toISOString(),
    recordId: attempt.recordId,
    type: record.type,
    endpoint: attempt.endpoint,
    round: attempt.round,
    status: attempt.status ?? null,
    durationMs: Math.round(attempt.durationMs * 10) / 10,
    outcome: attempt.outcome,
    notRetriedBecause: attempt.notRetriedBecause ?? null,
    error: attempt.error ? { code: attempt.error.code, message: shown(attempt.error.message) } : null,
  };
}

/**
 * The line for a record that will not be delivered at all (filtered), with the reason.
 *
 * @example
 * emulator.on('filtered', (r) => console.log(formatFilteredLine(r, false, Date.now())));
 */
export function formatFilteredLine(record: DeliveryRecord, color: boolean, at: number): string {
  const paint = painter(color);
  const label = record.duplicateOf !== undefined ? 'duplicate' : isBatchStandIn(record) ? 'batched' : 'filtered';
  return [
    paint('dim', clockTime(at)),
    record.id,
    record.type.padEnd(8),
    paint('yellow', label),
    printable(record.reason ?? 'no reason recorded'),
  ].join('  ');
}

/**
 * A line for one `cancelled` event: a retry to this endpoint will not start (queued, or promised by a
 * "will retry" line), because another endpoint accepted the message.
 *
 * @example
 * emulator.on('cancelled', (c, r) => console.log(formatCancelledLine(c, r, false, Date.now())));
 */
export function formatCancelledLine(
  cancelled: CancelledRetry,
  record: Pick<DeliveryRecord, 'type'>,
  color: boolean,
  at: number,
): string {
  const paint = painter(color);
  return [
    paint('dim', clockTime(at)),
    cancelled.recordId,
    record.type.padEnd(8),
    printable(cancelled.endpoint),
    paint('dim', `retry cancelled: ${printable(cancelled.reason)}`),
  ].join('  ');
}

/**
 * A `cancelled` event as one `--json` line, with `notRetriedBecause` as on `not-retried` attempt lines.
 *
 * @example
 * emulator.on('cancelled', (c, r) => writeJsonLine(process.stdout, cancelledJson(c, r, Date.now())));
 */
export function cancelledJson(
  cancelled: CancelledRetry,
  record: Pick<DeliveryRecord, 'type' | 'deliveredBy'>,
  at: number,
): Record<string, unknown> {
  return {
    event: 'cancelled',
    at: new Date(at).toISOString(),
    recordId: cancelled.recordId,
    type: record.type,
    endpoint: shown(cancelled.endpoint),
    round: cancelled.round,
    notRetriedBecause: notRetriedWords(record.deliveredBy),
    reason: shown(cancelled.reason),
  };
}

/**
 * Figures per endpoint over the delivery log, counted as the live log shows them for that endpoint:
 * attempts sent to it; records it delivered (a "delivered" line there); records failed there (a
 * "gave up" line there, or the record failed with nothing delivered there, e.g. closed at exit);
 * records still pending; records not retried there (failed there, and another endpoint accepted
 * them: a "not retried" or "retry cancelled" line). `endpoints` are as shown (masked).
 *
 * @example
 * summarizeEndpoints(emulator.deliveries, ['http://127.0.0.1:3000/webhooks']);
 */
export function summarizeEndpoints(
  records: readonly DeliveryRecord[],
  endpoints: readonly string[],
): EndpointSummary[] {
  return [...new Set(endpoints)].map((endpoint) => {
    const row: EndpointSummary = { endpoint, attempts: 0, delivered: 0, failed: 0, pending: 0, notRetried: 0 };
    for (const r of records) {
      if (r.state === 'filtered') continue;
      row.attempts += r.attempts.filter((a) => a.endpoint === endpoint).length;
      const outcome = endpointOutcome(r, endpoint);
      if (outcome === 'delivered') row.delivered++;
      else if (outcome === 'failed') row.failed++;
      else if (outcome === 'pending') row.pending++;
      else if (outcome === 'not-retried') row.notRetried++;
    }
    return row;
  });
}

function lastAttemptText(r: DeliveryRecord): string {
  const last = r.attempts.at(-1);
  const lastText = last
    ? `last attempt ${last.status ?? last.error?.code ?? '?'} at ${printable(last.endpoint)}`
    : 'never attempted';
  return `${r.attempts.length} attempt${r.attempts.length === 1 ? '' : 's'}, ${lastText}`;
}

/**
 * What `close()` reported: the records still pending when `serve` stopped, now recorded failed.
 * Printed before the summary, which counts them as failed too.
 *
 * @example
 * const { pending } = await emulator.close();
 * console.log(formatCloseReport(pending, false));
 */
export function formatCloseReport(closed: readonly DeliveryRecord[], color: boolean): string {
  const paint = painter(color);
  if (closed.length === 0) return 'Every message was delivered, failed or filtered before exit: nothing left pending.';
  const out = [
    paint('yellow', `${closed.length} not delivered at exit, now recorded failed (emulator closed before delivery):`),
  ];
  for (const r of closed) out.push(`  ${r.id}  ${r.type}  ${lastAttemptText(r)}`);
  return out.join('\n');
}

function counts(records: readonly DeliveryRecord[]) {
  const count = (state: string) => records.filter((r) => r.state === state).length;
  const batched = records.filter((r) => r.state === 'filtered' && isBatchStandIn(r)).length;
  return {
    received: records.length,
    delivered: count('delivered'),
    failed: count('failed'),
    pending: count('pending'),
    filtered: count('filtered'),
    batched,
  };
}

/**
 * The summary `serve` prints at exit, after the close report and in agreement with it: a table per
 * endpoint, totals (records closed at exit count as failed, and are said to be), and every other
 * failed record with its reason.
 *
 * @example
 * const { pending } = await emulator.close();
 * console.log(formatSummary(emulator.deliveries, endpoints, pending, false));
 */
export function formatSummary(
  records: readonly DeliveryRecord[],
  endpoints: readonly string[],
  closedAtExit: readonly DeliveryRecord[],
  color: boolean,
): string {
  const paint = painter(color);
  const rows = summarizeEndpoints(records, endpoints);
  const header = ['endpoint', 'attempts', 'delivered', 'failed', 'pending', 'not retried'];
  const cells = rows.map((r) => [
    printable(r.endpoint),
    String(r.attempts),
    String(r.delivered),
    String(r.failed),
    String(r.pending),
    String(r.notRetried),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] as string).length)));
  const line = (c: string[]) =>
    c.map((v, i) => (i === 0 ? v.padEnd(widths[i] as number) : v.padStart(widths[i] as number))).join('  ');
  const c = counts(records);
  const atExit = closedAtExit.length > 0 ? ` (${closedAtExit.length} closed at exit)` : '';
  const out = [
    paint('bold', 'Summary'),
    line(header),
    ...cells.map(line),
    ...(rows.some((r) => r.notRetried > 0)
      ? ['not retried: failed at that endpoint, not retried because another endpoint accepted the message']
      : []),
    '',
    `received ${c.received}: delivered ${c.delivered}, failed ${c.failed}${atExit}, pending ${c.pending}, filtered ${c.filtered}` +
      (c.batched > 0 ? ` (${c.batched} of them sent in a Webhooks (Actions) batch, counted in its record)` : ''),
  ];
  const closedIds = new Set(closedAtExit.map((r) => r.id));
  for (const r of records) {
    if (r.state === 'failed' && !closedIds.has(r.id))
      out.push(paint('red', `  failed ${r.id} ${r.type}: ${printable(r.reason ?? 'no reason recorded')}`));
  }
  return out.join('\n');
}

/**
 * The summary as the last `--json` line of `serve`: the same figures as `formatSummary`.
 *
 * @example
 * writeJsonLine(process.stdout, summaryJson(emulator.deliveries, endpoints, pending));
 */
export function summaryJson(
  records: readonly DeliveryRecord[],
  endpoints: readonly string[],
  closedAtExit: readonly DeliveryRecord[],
): Record<string, unknown> {
  const closedIds = new Set(closedAtExit.map((r) => r.id));
  return {
    event: 'summary',
    ...counts(records),
    closedAtExit: closedAtExit.length,
    endpoints: summarizeEndpoints(records, endpoints),
    failures: records
      .filter((r) => r.state === 'failed')
      .map((r) => ({
        id: r.id,
        type: r.type,
        attempts: r.attempts.length,
        closedAtExit: closedIds.has(r.id),
        reason: shown(r.reason ?? 'no reason recorded'),
      })),
  };
}
