import type { Attempt, DeliveryRecord } from '../log/delivery-record.js';
import { painter, statusStyle, type Style } from './terminal-style.js';

/** Per-endpoint figures of a `serve` session. */
export interface EndpointSummary {
  endpoint: string;
  attempts: number;
  delivered: number;
  failed: number;
  pending: number;
}

const two = (n: number) => String(n).padStart(2, '0');

/** `HH:MM:SS.mmm` in local time. */
function clockTime(iso: string): string {
  const d = new Date(iso);
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

/**
 * One line of `serve`'s live log for an attempt: time, type, endpoint, status (or error), duration,
 * and what follows (delivered, retry, given up).
 *
 * @example
 * emulator.on('attempt', (a, r) => console.log(formatAttemptLine(a, r, true)));
 */
export function formatAttemptLine(attempt: Attempt, record: DeliveryRecord, color: boolean): string {
  const paint = painter(color);
  const status = attempt.status !== undefined ? String(attempt.status) : (attempt.error?.code ?? 'error');
  const outcome = attempt.outcome === 'delivered' ? 'delivered' : attempt.outcome === 'retry' ? 'will retry' : 'gave up';
  const outcomeStyle: Style = attempt.outcome === 'delivered' ? 'green' : attempt.outcome === 'retry' ? 'yellow' : 'red';
  const error = attempt.error && attempt.status === undefined ? `  ${attempt.error.message}` : '';
  return [
    paint('dim', clockTime(attempt.at)),
    record.type.padEnd(8),
    attempt.endpoint,
    paint(statusStyle(attempt.status), status.padStart(3)),
    `${Math.round(attempt.durationMs)} ms`.padStart(7),
    paint(outcomeStyle, outcome) + (attempt.round > 1 ? paint('dim', ` (round ${attempt.round})`) : '') + error,
  ].join('  ');
}

/**
 * Figures per endpoint over the delivery log: attempts sent to it, records it delivered, records
 * failed and records still pending among those meant for it.
 *
 * @example
 * summarizeEndpoints(emulator.deliveries, ['http://127.0.0.1:3000/webhooks']);
 */
export function summarizeEndpoints(records: readonly DeliveryRecord[], endpoints: readonly string[]): EndpointSummary[] {
  return endpoints.map((endpoint) => {
    const row: EndpointSummary = { endpoint, attempts: 0, delivered: 0, failed: 0, pending: 0 };
    for (const r of records) {
      if (r.state === 'filtered') continue;
      row.attempts += r.attempts.filter((a) => a.endpoint === endpoint).length;
      if (r.state === 'delivered' && r.deliveredTo === endpoint) row.delivered++;
      else if (r.state === 'failed') row.failed++;
      else if (r.state === 'pending') row.pending++;
    }
    return row;
  });
}

/**
 * The summary `serve` prints at exit: a table per endpoint, totals, and every record that was still
 * pending (reported, never silently dropped).
 *
 * @example
 * console.log(formatSummary(emulator.deliveries, endpoints, pendingAtExit, false));
 */
export function formatSummary(
  records: readonly DeliveryRecord[],
  endpoints: readonly string[],
  pendingAtExit: readonly DeliveryRecord[],
  color: boolean,
): string {
  const paint = painter(color);
  const pendingIds = new Set(pendingAtExit.map((r) => r.id));
  // Records closed while pending count as pending here: that is what they were when we stopped.
  const view = records.map((r) => (pendingIds.has(r.id) ? ({ ...r, state: 'pending' } as DeliveryRecord) : r));
  const rows = summarizeEndpoints(view, endpoints);
  const header = ['endpoint', 'attempts', 'delivered', 'failed', 'pending'];
  const cells = rows.map((r) => [r.endpoint, String(r.attempts), String(r.delivered), String(r.failed), String(r.pending)]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] as string).length)));
  const line = (c: string[]) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i] as number) : v.padStart(widths[i] as number))).join('  ');
  const count = (state: string) => view.filter((r) => r.state === state).length;
  const out = [
    '',
    paint('bold', 'Summary'),
    line(header),
    ...cells.map(line),
    '',
    `received ${view.length}: delivered ${count('delivered')}, failed ${count('failed')}, pending ${count('pending')}, filtered ${count('filtered')}`,
  ];
  if (pendingAtExit.length > 0) {
    out.push(paint('yellow', `${pendingAtExit.length} not delivered at exit (recorded failed: emulator closed before delivery):`));
    for (const r of pendingAtExit) {
      const last = r.attempts.at(-1);
      const lastText = last ? `last attempt ${last.status ?? last.error?.code ?? '?'} at ${last.endpoint}` : 'never attempted';
      out.push(`  ${r.id}  ${r.type}  ${r.attempts.length} attempt${r.attempts.length === 1 ? '' : 's'}, ${lastText}`);
    }
  }
  for (const r of view.filter((x) => x.state === 'failed')) {
    out.push(paint('red', `  failed ${r.id} ${r.type}: ${r.reason ?? 'no reason recorded'}`));
  }
  return out.join('\n');
}
