// The demo's result table: one row per delivered message, checked against what was expected.

/** One row of the demo's table. */
export interface DemoRow {
  type: string;
  endpoint: string;
  attempts: number;
  finalStatus: string;
  signatureVerified: boolean;
  handlerSaw: boolean;
  /** What this row should show; a row that differs fails the demo. */
  expected: { attempts: number; finalStatus: string };
}

/** Whether a row shows what was expected (and a verified signature and a handler that saw it). */
export function rowOk(row: DemoRow): boolean {
  return (
    row.attempts === row.expected.attempts &&
    row.finalStatus === row.expected.finalStatus &&
    row.signatureVerified &&
    row.handlerSaw
  );
}

/**
 * Renders the rows as an aligned text table: type | endpoint | attempts | final status | signature
 * verified | handler saw it, with a mark per row.
 */
export function formatDemoTable(rows: DemoRow[]): string {
  const header = ['', 'type', 'endpoint', 'attempts', 'final status', 'signature verified', 'handler saw it'];
  const cells = rows.map((r) => [
    rowOk(r) ? 'ok' : 'XX',
    r.type,
    r.endpoint,
    String(r.attempts),
    r.finalStatus,
    r.signatureVerified ? 'yes' : 'no',
    r.handlerSaw ? 'yes' : 'no',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] as string).length)));
  const line = (c: string[]) =>
    c
      .map((v, i) => v.padEnd(widths[i] as number))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}
