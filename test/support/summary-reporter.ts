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

function hasFailedTest(task: Task): boolean {
  return (task.tasks ?? []).some((t) => (t.type === 'test' && t.result?.state === 'fail') || hasFailedTest(t));
}

export default class SummaryReporter implements Reporter {
  onFinished(files: readonly Task[] = [], errors: readonly unknown[] = []): void {
    const totals = { passed: 0, failed: 0, skipped: 0 };
    count(files, totals);
    // A file that failed to load (an import or a spawn in its setup threw) has no failed test of its
    // own: count it as one failure, so the line never says 0 failed for a red run.
    const brokenFiles = files.filter((f) => f.result?.state === 'fail' && !hasFailedTest(f)).length;
    const failed = totals.failed + brokenFiles + errors.length;
    process.stdout.write(`\n${totals.passed} passed, ${failed} failed, ${totals.skipped} skipped\n`);
  }
}
