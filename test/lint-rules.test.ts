// The linter keeps its promise: the project's own oxlint configuration, type-aware, refuses a floating
// promise, a promise where a callback's result is ignored, an `await` of a plain value and a switch that
// misses a case (test/fixtures/lint/promises.ts.txt, linted from a temporary directory as promises.ts).
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'hookgate-lint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Diagnostic = { code: string; labels: Array<{ span: { line: number } }> };

it('fails on each promise rule and the missed switch case, naming the line', async () => {
  copyFileSync(path.join(root, 'test/fixtures/lint/promises.ts.txt'), path.join(dir, 'promises.ts'));
  // The project's compiler options, without the @types packages a temporary directory cannot resolve.
  const base = path.join(root, 'tsconfig.base.json');
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ extends: base, compilerOptions: { noEmit: true, types: [] }, include: ['promises.ts'] }),
  );
  const oxlint = path.join(root, 'node_modules/.bin/oxlint');
  const run = promisify(execFile)(
    oxlint,
    ['--type-aware', '-c', path.join(root, '.oxlintrc.json'), '-f', 'json', 'promises.ts'],
    // oxlint looks for the type-aware half under the working directory's node_modules: name it.
    { cwd: dir, env: { ...process.env, OXLINT_TSGOLINT_PATH: path.join(root, 'node_modules/.bin/tsgolint') } },
  );
  const failure = await run.then(
    () => undefined,
    (error: { code?: number; stdout: string }) => error,
  );
  expect(failure?.code).toBe(1);
  const { diagnostics } = JSON.parse(failure!.stdout) as { diagnostics: Diagnostic[] };
  const found = diagnostics.map((d) => `${d.code}@${d.labels[0]?.span.line}`).sort();
  expect(found).toEqual([
    'typescript(await-thenable)@17',
    'typescript(no-floating-promises)@7',
    'typescript(no-misused-promises)@11',
    'typescript(switch-exhaustiveness-check)@21',
    // the same `await` of a plain value, seen without types
    'unicorn(no-unnecessary-await)@17',
  ]);
});
