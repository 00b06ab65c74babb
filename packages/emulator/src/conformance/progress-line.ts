import type { ConformanceCaseResult } from './conformance-types.js';

/**
 * One line of progress for a case just run: its position, verdict, level, id, status and time, and
 * on a failure what was observed (a timeout says it timed out).
 *
 * @example
 * runConformance({ url, secret, onCase: (c, i, n) => process.stderr.write(`${formatProgressLine(c, i, n)}\n`) });
 * // '[ 3/20] PASS  MUST    signed-page  200  4 ms'
 */
export function formatProgressLine(result: ConformanceCaseResult, index: number, total: number): string {
  const width = String(total).length;
  const status = result.status === null ? '-' : String(result.status);
  const head = `[${String(index).padStart(width)}/${total}] ${result.passed ? 'PASS' : 'FAIL'}  ${result.level.padEnd(6)}  ${result.id}  ${status}  ${Math.round(result.durationMs)} ms`;
  return result.passed ? head : `${head}  ${result.detail}`;
}
