// `pnpm bench`: runs every benchmark in one process run and prints ratios against same-run baselines.
// Pass names to run a subset: `pnpm bench core adapters`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { printReport, type BenchReport } from './lib.js';

// Benchmarks measure the BUILT packages, what users run. Under the root tsconfig, tsx would follow its
// `paths` to src/; so this re-runs itself with a tsconfig that has none (@hookgate/* → node_modules →
// dist/). The adapters and intake benchmarks' server processes inherit the same setting.
const DIST_TSCONFIG = fileURLToPath(new URL('../test/runtimes/tsconfig.dist.json', import.meta.url));
if (process.env.TSX_TSCONFIG_PATH !== DIST_TSCONFIG) {
  const run = spawnSync(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    {
      stdio: 'inherit',
      env: { ...process.env, TSX_TSCONFIG_PATH: DIST_TSCONFIG },
    },
  );
  process.exit(run.status ?? 1);
}
const core = fileURLToPath(import.meta.resolve('@hookgate/core'));
if (!core.includes('/dist/'))
  throw new Error(`@hookgate/core resolved to ${core}, not to a build: run pnpm build first.`);
console.log(`benchmarks on the built packages (@hookgate/core → ${core.slice(core.indexOf('packages'))})`);

const ALL = [
  'core',
  'adapters',
  'peers',
  'emulator',
  'intake',
  'client',
  'redis',
  'bullmq',
  'inspector',
  'tracking-plan',
  'plan-start',
  'footprint',
  'plan-bounds',
  'lossy-numbers',
] as const;
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
