// `pnpm bench`: runs every benchmark in one process run and prints ratios against same-run baselines.
// Pass names to run a subset: `pnpm bench core adapters`.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { printReport, type BenchReport } from './lib.js';

const ALL = ['core', 'adapters', 'emulator', 'intake', 'client', 'redis'] as const;
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = wanted.length > 0 ? wanted : [...ALL];

let failed = 0;
for (const name of names) {
  const file = fileURLToPath(new URL(`./${name}.ts`, import.meta.url));
  if (!existsSync(file)) {
    console.error(`unknown benchmark "${name}"; choose from: ${ALL.join(', ')}`);
    process.exit(2);
  }
  const mod = (await import(file)) as { default: () => Promise<BenchReport | BenchReport[]> };
  const reports = [await mod.default()].flat();
  for (const report of reports) if (!printReport(report)) failed++;
}
console.log(failed === 0 ? '\nEvery ratio meets its bar.' : `\n${failed} benchmark(s) below their bar.`);
process.exitCode = failed === 0 ? 0 : 1;
