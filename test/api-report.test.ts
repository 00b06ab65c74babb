// scripts/api-report.mjs (`pnpm api:check`, `pnpm api:update`) on a small workspace of its own, one
// package per case: the check must accept a package whose report matches, and refuse a report that no
// longer matches, a type users cannot name, and a type from an internal entry. Two runs of the script
// in all (`--update` to write the first reports, then the check), since each loads API Extractor.
// The internal case reads @hookgate/core's built declarations (`pnpm test` builds first).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const script = path.join(root, 'scripts', 'api-report.mjs');
const run = promisify(execFile);

// Inside the repository (a git-ignored folder), so that `@types/node` and `@hookgate/core` resolve.
mkdirSync(path.join(root, '.hookgate-tmp'), { recursive: true });
const workspace = mkdtempSync(path.join(root, '.hookgate-tmp', 'api-report-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

/** Writes package `name` with these main-entry declarations. */
function writePackage(name: string, declarations: string): void {
  const dir = path.join(workspace, 'packages', name);
  mkdirSync(path.join(dir, 'dist'), { recursive: true });
  const manifest = {
    name: `@hookgate/${name}`,
    version: '1.0.0',
    exports: {
      '.': { import: { types: './dist/index.d.ts', default: './dist/index.js' } },
      './internal': { import: { types: './dist/internal.d.ts', default: './dist/internal.js' } },
    },
  };
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest));
  writeFileSync(path.join(dir, 'dist', 'index.d.ts'), declarations);
}

/** Runs the script on the workspace: its exit code and output. */
async function runScript(...flags: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [script, `--root=${workspace}`, ...flags], {
      encoding: 'utf8',
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  }
}

const good =
  'export interface DemoOptions {\n    size: number;\n}\nexport declare function demo(options: DemoOptions): void;\n';

let update: { code: number; output: string };
let checked: { code: number; output: string };
beforeAll(async () => {
  writePackage('same', good);
  writePackage('changed', good);
  update = await runScript('--update', 'same', 'changed');
  writePackage('changed', `${good}export declare function more(): void;\n`);
  writePackage(
    'forgotten',
    'interface DemoOptions {\n    size: number;\n}\nexport declare function demo(options: DemoOptions): void;\nexport {};\n',
  );
  writePackage(
    'internal',
    "import { PlanSetup } from '@hookgate/core/internal';\nexport declare function demo(setup: PlanSetup): void;\n",
  );
  checked = await runScript();
}, 120_000);

describe('scripts/api-report.mjs', () => {
  it('writes each report with --update', () => {
    expect(update.code, update.output).toBe(0);
    expect(readFileSync(path.join(workspace, 'packages', 'same', 'api', 'same.api.md'), 'utf8')).toContain(
      'export function demo(options: DemoOptions): void;',
    );
  });

  it('accepts a package whose report matches its declarations', () => {
    expect(checked.output).toContain('same: API report up to date');
  });

  it('refuses a report that no longer matches, shows what changed and leaves the report as it was', () => {
    expect(checked.code).toBe(1);
    expect(checked.output).toContain('packages/changed/api/changed.api.md is out of date');
    expect(checked.output).toContain('+ export function more(): void;');
    expect(readFileSync(path.join(workspace, 'packages', 'changed', 'api', 'changed.api.md'), 'utf8')).not.toContain(
      'more',
    );
  });

  it('refuses a type that a signature names but the entry does not export', () => {
    expect(checked.output).toMatch(/ae-forgotten-export\) The symbol "DemoOptions" needs to be exported/);
  });

  it('refuses a type that users could import only from an internal entry', () => {
    expect(existsSync(path.join(root, 'packages', 'core', 'dist', 'internal.d.ts')), 'run pnpm build first').toBe(true);
    expect(checked.output).toMatch(
      /import \{ PlanSetup \} from '@hookgate\/core\/internal';: a public signature names a type users can only import from an internal entry/,
    );
  });
});
