import { styleText } from 'node:util';
import type { ConformanceReport } from './conformance-types.js';
import { looksLikeClassicReceiver } from './wrong-destination.js';
import { looksLikeWrongSecret } from './wrong-secret.js';

/** Options of `formatConformanceReport`. @example formatConformanceReport(report, { color: true }); */
export interface FormatReportOptions {
  /** Colour PASS/FAIL with ANSI escapes. Default false. */
  color?: boolean;
  /** How to name the secret in the wrong-secret line: the CLI says `--secret`. Default `the secret`. */
  secretName?: string;
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

/**
 * Renders a conformance report as a plain-text table (one row per case) followed by a verdict line.
 *
 * @example
 * console.log(formatConformanceReport(await runConformance({ url, secret }), { color: process.stdout.isTTY }));
 */
export function formatConformanceReport(report: ConformanceReport, options: FormatReportOptions = {}): string {
  const paint = (format: Parameters<typeof styleText>[0], text: string) =>
    options.color ? styleText(format, text, { validateStream: false }) : text;
  const header = ['result', 'level', 'case', 'expected', 'status', 'time'];
  const rows = report.cases.map((c) => [
    c.passed ? 'PASS' : 'FAIL',
    c.level,
    c.id,
    c.expected,
    c.status === null ? '-' : String(c.status),
    `${Math.round(c.durationMs)} ms`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => pad(cell, widths[i] as number))
      .join('  ')
      .trimEnd();
  const out: string[] = [
    `Receiver conformance: ${report.url}`,
    '',
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
  ];
  // One cause behind most failures: say it first, then the details.
  if (looksLikeWrongSecret(report)) {
    out.unshift(
      paint('red', `every signed request got 401: check ${options.secretName ?? 'the secret'}`) +
        ' (the receiver verifies signatures, with another secret than this one; the failures below follow from it)',
      '',
    );
  }
  if (looksLikeClassicReceiver(report)) {
    out.unshift(
      paint('red', 'every PUT and PATCH got 405: this looks like a Webhooks (Classic) receiver') +
        " (it takes POST only); create it with destination: 'actions' for Segment's Webhooks (Actions) destination. The failures below follow from it",
      '',
    );
  }
  report.cases.forEach((c, i) => {
    const cells = rows[i] as string[];
    const text = line(cells);
    const verdict = cells[0] as string;
    const painted = c.passed ? paint('green', verdict) : paint(c.level === 'MUST' ? 'red' : 'yellow', verdict);
    out.push(painted + text.slice(verdict.length));
  });
  const failures = report.cases.filter((c) => !c.passed);
  if (failures.length > 0) {
    out.push('', 'Failures:');
    for (const c of failures) out.push(`  ${c.level} ${c.id}: ${c.detail}`);
  }
  if (report.stoppedEarly !== undefined)
    out.push(
      '',
      paint(
        'red',
        `${report.stoppedEarly} (${report.counts.notRun} case${report.counts.notRun === 1 ? '' : 's'} not run).`,
      ),
    );
  const { passed, mustFailed, shouldFailed } = report.counts;
  const verdict = report.ok
    ? `${passed}/${report.cases.length} passed; no MUST failure${shouldFailed > 0 ? `, ${shouldFailed} SHOULD failure${shouldFailed === 1 ? '' : 's'}` : ''}.`
    : `${mustFailed} MUST failure${mustFailed === 1 ? '' : 's'}, ${shouldFailed} SHOULD failure${shouldFailed === 1 ? '' : 's'}: the sender's deliveries to this receiver are not safe.`;
  out.push('', paint(report.ok ? 'green' : 'red', verdict), `(${report.durationMs} ms)`);
  return out.join('\n');
}
