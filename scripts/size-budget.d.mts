// Types of size-budget.mjs, for the TypeScript that imports it (test/packaging/check-packages.test.ts).
import type { WorkersBundle } from './workers-bundle.mjs';
export interface SizeBudgets {
  tarballs: Record<string, number>;
  workersBundle: { gzip: number; forbidden: string[] };
}
export function unpackedBytes(tarball: string): number;
export function checkSizeBudgets(
  packages: Array<{ name: string; tarball: string }>,
  budgets?: SizeBudgets,
  bundle?: () => Promise<WorkersBundle>,
): Promise<{ lines: string[]; failures: string[] }>;
