// Prints one plain closing line, `N passed, N failed, N skipped`, after vitest's own summary, so
// that any CI reading a run's last line sees the counts in a runner-neutral form.
// With HOOKGATE_SUMMARY_CARRY=<file> (set by .ci/run, which runs vitest several times), the line
// counts this run plus the runs before it: the totals are carried in that JSON file.
import { readFileSync, writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

type Totals = { passed: number; failed: number; skipped: number };

function carried(file: string): Totals {
  let text = '';
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch {
    // No file yet: the first run.
  }
  if (text === '') return { passed: 0, failed: 0, skipped: 0 };
  const t = JSON.parse(text) as Partial<Totals>;
  if (![t.passed, t.failed, t.skipped].every((n) => Number.isInteger(n)))
    throw new Error(`HOOKGATE_SUMMARY_CARRY: ${file} does not hold totals`);
  return t as Totals;
}

function hasFailedTest(module: TestModule): boolean {
  return !module.children.allTests('failed').next().done;
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: readonly TestModule[], unhandledErrors: readonly unknown[]): void {
    const totals = { passed: 0, failed: 0, skipped: 0 };
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') totals.passed++;
        else if (state === 'failed') totals.failed++;
        else totals.skipped++;
      }
    }
    // A file that failed to load (an import or a spawn in its setup threw) has no failed test of its
    // own: count it as one failure, so the line never says 0 failed for a red run.
    const brokenFiles = modules.filter((m) => m.state() === 'failed' && !hasFailedTest(m)).length;
    const run: Totals = {
      passed: totals.passed,
      failed: totals.failed + brokenFiles + unhandledErrors.length,
      skipped: totals.skipped,
    };
    const carry = process.env.HOOKGATE_SUMMARY_CARRY;
    if (!carry) {
      process.stdout.write(`\n${run.passed} passed, ${run.failed} failed, ${run.skipped} skipped\n`);
      return;
    }
    const before = carried(carry);
    const all: Totals = {
      passed: before.passed + run.passed,
      failed: before.failed + run.failed,
      skipped: before.skipped + run.skipped,
    };
    writeFileSync(carry, JSON.stringify(all));
    process.stdout.write(
      `\n(this run on Node ${process.version}: ${run.passed} passed, ${run.failed} failed, ${run.skipped} skipped; every run so far:)\n`,
    );
    process.stdout.write(`${all.passed} passed, ${all.failed} failed, ${all.skipped} skipped\n`);
  }
}
