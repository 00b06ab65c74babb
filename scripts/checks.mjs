// The checks `pnpm test` runs before the quick suite, in two stages; the commands of a stage run side by side (on
// two cores a stage takes about as long as its slowest command instead of the sum):
//   1. the build (tsup, packages in dependency order)  |  the type check (tsc, TypeScript 7: sources only)
//   2. the lint (prettier, then oxlint: type-aware;    |  the package checks (publint, attw) on the tarballs
//      the Next.js example resolves @hookgate/core     |  the API reports (API Extractor) against the built
//      through its dist, so it waits for the build)    |  declarations
// Each command's output is held and printed as one block when it ends, with its wall time, so they do not
// interleave. A stage runs to its end; a failed stage stops the script before the next one.
import { spawn } from 'node:child_process';

const STAGES = [
  ['pnpm build', 'pnpm typecheck'],
  ['pnpm lint', 'pnpm check:packages', 'pnpm api:check'],
];

/** Runs one shell command; prints its output as one block when it ends; resolves with its exit status. */
function run(command) {
  return new Promise((resolve) => {
    const started = performance.now();
    const output = [];
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    const finish = (status) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n== ${command}: ${status === 0 ? 'ok' : `FAILED (exit ${status})`} in ${seconds} s\n`);
      process.stdout.write(Buffer.concat(output));
      resolve(status);
    };
    child.on('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`));
      finish(1);
    });
    child.on('close', (code, signal) => finish(code ?? (signal ? 1 : 0)));
  });
}

for (const stage of STAGES) {
  const statuses = await Promise.all(stage.map(run));
  const failed = stage.filter((_, i) => statuses[i] !== 0);
  if (failed.length > 0) {
    process.stderr.write(`\nchecks failed: ${failed.join(', ')}\n`);
    process.exit(1);
  }
}
