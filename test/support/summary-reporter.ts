// Prints one plain closing line, `N passed, N failed, N skipped`, after vitest's own summary, so
// that any CI reading a run's last line sees the counts in a runner-neutral form.
import type { Reporter } from 'vitest/reporters';

type Task = { type: string; mode?: string; result?: { state?: string }; tasks?: Task[] };

function count(tasks: readonly Task[], totals: { passed: number; failed: number; skipped: number }): void {
  for (const task of tasks) {
    if (task.tasks) count(task.tasks, totals);
    if (task.type !== 'test') continue;
    const state = task.result?.state;
    if (state === 'pass') totals.passed++;
    else if (state === 'fail') totals.failed++;
    else totals.skipped++;
  }
}

export default class SummaryReporter implements Reporter {
  onFinished(files: readonly Task[] = [], errors: readonly unknown[] = []): void {
    const totals = { passed: 0, failed: 0, skipped: 0 };
    count(files, totals);
    const failed = totals.failed + errors.length;
    process.stdout.write(`\n${totals.passed} passed, ${failed} failed, ${totals.skipped} skipped\n`);
  }
}
