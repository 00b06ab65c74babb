// The checks `pnpm test` runs before the quick suite, in three independent lines side by side (on two cores they
// take about as long as the slowest line instead of the sum of all three):
//   lint:       prettier --check . ; oxlint (type-aware)
//   build:      the packages (tsup) ; the package checks (publint, attw) on their tarballs
//   type check: tsc (TypeScript 7)
// Each line's output is held and printed as one block when it ends, with its wall time, so the lines do not
// interleave. Every line runs to its end; the script fails if any of them failed.
import { spawn } from 'node:child_process';

const LINES = [
  { name: 'lint', steps: ['pnpm lint'] },
  { name: 'build', steps: ['pnpm build', 'pnpm check:packages'] },
  { name: 'type check', steps: ['pnpm typecheck'] },
];

/** Runs one shell command, collecting its output; resolves with its exit status. */
function run(command, output) {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`));
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Runs a line's steps one after another, stopping at the first that fails; prints the line's output once. */
async function runLine({ name, steps }) {
  const started = performance.now();
  const output = [];
  let status = 0;
  for (const step of steps) {
    output.push(Buffer.from(`$ ${step}\n`));
    status = await run(step, output);
    if (status !== 0) break;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(`\n== ${name}: ${status === 0 ? 'ok' : `FAILED (exit ${status})`} in ${seconds} s\n`);
  process.stdout.write(Buffer.concat(output));
  return status;
}

const statuses = await Promise.all(LINES.map(runLine));
const failed = LINES.filter((_, i) => statuses[i] !== 0).map((line) => line.name);
if (failed.length > 0) {
  process.stderr.write(`\nchecks failed: ${failed.join(', ')}\n`);
  process.exit(1);
}
