// `npx hookgate` right after the quick start's `pnpm install`, in a clone: the committed bin shim
// (packages/emulator/bin/hookgate.js) is linked into node_modules/.bin at install time, and runs the
// CLI's sources through tsx while dist/ is not built yet.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const execFileAsync = promisify(execFile);
const USAGE = /^Usage: hookgate <command>/;

async function run(
  file: string,
  args: string[],
  cwd = root,
): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await execFileAsync(file, args, { cwd, encoding: 'utf8' });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; code?: number };
    return { stdout: e.stdout ?? '', stderr: e.stderr ?? '', code: typeof e.code === 'number' ? e.code : -1 };
  }
}

const scratchDirs: string[] = [];
afterAll(() => {
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
});

// Spawned processes (tsx, npx) are slow on a loaded machine: a generous bound, not a timing assertion.
describe('the hookgate bin in the workspace', { timeout: 90_000 }, () => {
  it('is linked by pnpm install (the bin is a committed file, not a build output)', () => {
    expect(existsSync(path.join(root, 'node_modules/.bin/hookgate'))).toBe(true);
  });

  it('answers --help through node_modules/.bin and through npx, without asking the registry', async () => {
    const [viaBin, viaNpx] = await Promise.all([
      run(path.join(root, 'node_modules/.bin/hookgate'), ['--help']),
      run('npx', ['--no-install', 'hookgate', '--help']),
    ]);
    expect(viaBin.code, viaBin.stderr).toBe(0);
    expect(viaBin.stdout).toMatch(USAGE);
    expect(viaNpx.code, viaNpx.stderr).toBe(0);
    expect(viaNpx.stdout).toBe(viaBin.stdout);
  });

  it('runs the CLI from its TypeScript sources when dist/ is not built, with the same answers', async () => {
    // A copy of the emulator package without dist/: the shim, and its sources by symlink (the real
    // dist/ stays untouched for the tests running beside this one).
    const copy = mkdtempSync(path.join(root, 'packages', '.bin-probe-'));
    scratchDirs.push(copy);
    mkdirSync(path.join(copy, 'bin'));
    cpSync(path.join(root, 'packages/emulator/bin/hookgate.js'), path.join(copy, 'bin/hookgate.js'));
    symlinkSync(path.join(root, 'packages/emulator/src'), path.join(copy, 'src'));
    expect(existsSync(path.join(copy, 'dist'))).toBe(false);

    const [fromSources, fromBuild, unknown] = await Promise.all([
      run(process.execPath, [path.join(copy, 'bin/hookgate.js'), '--help']),
      run(process.execPath, [path.join(root, 'packages/emulator/bin/hookgate.js'), '--help']),
      run(process.execPath, [path.join(copy, 'bin/hookgate.js'), 'no-such-command']),
    ]);
    expect(fromSources.code, fromSources.stderr).toBe(0);
    expect(fromSources.stdout).toMatch(USAGE);
    expect(fromSources.stdout).toBe(fromBuild.stdout);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "no-such-command"/);
  });

  it('says what to do when neither dist/ nor the sources are there', async () => {
    const copy = mkdtempSync(path.join(root, 'packages', '.bin-probe-'));
    scratchDirs.push(copy);
    mkdirSync(path.join(copy, 'bin'));
    cpSync(path.join(root, 'packages/emulator/bin/hookgate.js'), path.join(copy, 'bin/hookgate.js'));
    const result = await run(process.execPath, [path.join(copy, 'bin/hookgate.js'), '--help']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/dist\/cli\.js is missing; this installation of @hookgate\/emulator is incomplete/);
  });
});
