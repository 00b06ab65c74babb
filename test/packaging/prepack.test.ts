// `pnpm pack` never ships a package without its build: each package's `prepack`
// (scripts/prepack.mjs) builds it when a file its package.json points to is missing or stale, and
// refuses to pack, naming the file, when the build leaves one missing. Tried on a copy of
// @hookgate/hono (so the real package's dist/, which other tests use, is never removed), packed by
// the real pnpm and npm in separate processes; the tarball's file list is read with tar.
import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without types
import { entryFiles } from '../../scripts/prepack.mjs';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const made: string[] = [];

afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A copy of packages/hono without dist/, inside the repository (so Node and tsup find node_modules). */
function honoCopy(edit: (pkg: Record<string, any>) => void = () => {}): string {
  const base = path.join(ROOT, '.cache');
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(path.join(base, 'prepack-test-'));
  made.push(dir);
  const pkgDir = path.join(dir, 'hono');
  mkdirSync(pkgDir);
  const from = path.join(ROOT, 'packages/hono');
  for (const name of ['src', 'tsup.config.ts', 'README.md', 'LICENSE'])
    cpSync(path.join(from, name), path.join(pkgDir, name), { recursive: true });
  symlinkSync(path.join(from, 'node_modules'), path.join(pkgDir, 'node_modules'));
  writeFileSync(
    path.join(pkgDir, 'tsconfig.json'),
    JSON.stringify({
      extends: path.join(ROOT, 'tsconfig.base.json'),
      compilerOptions: { noEmit: true },
      include: ['src'],
    }),
  );
  const pkg = JSON.parse(readFileSync(path.join(from, 'package.json'), 'utf8')) as Record<string, any>;
  pkg.scripts.prepack = `node ${path.join(ROOT, 'scripts/prepack.mjs')}`;
  edit(pkg);
  writeFileSync(path.join(pkgDir, 'package.json'), JSON.stringify(pkg, null, 2));
  return pkgDir;
}

async function tarList(tarball: string): Promise<string[]> {
  const { stdout } = await run('tar', ['-tzf', tarball], { encoding: 'utf8' });
  return stdout.trim().split('\n').sort();
}

describe('prepack', () => {
  it('every package runs it before pnpm pack, and names its built files in package.json', () => {
    for (const name of readdirSync(path.join(ROOT, 'packages'))) {
      const file = path.join(ROOT, 'packages', name, 'package.json');
      if (!existsSync(file)) continue;
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { scripts: Record<string, string> };
      expect(pkg.scripts.prepack, name).toBe('node ../../scripts/prepack.mjs');
      expect((entryFiles(pkg) as string[]).filter((f) => f.startsWith('dist/')).length, name).toBeGreaterThan(0);
    }
  });

  it('pnpm pack of a package never built builds it first: the tarball holds dist/', async () => {
    const dir = honoCopy();
    const out = mkdtempSync(path.join(os.tmpdir(), 'hookgate-pack-'));
    made.push(out);
    expect(existsSync(path.join(dir, 'dist'))).toBe(false);
    const packed = await run('npx', ['-y', 'pnpm@10', 'pack', '--pack-destination', out], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 180_000,
    });
    expect(packed.stderr + packed.stdout).toMatch(/@hookgate\/hono prepack: building/);
    const [tarball] = readdirSync(out);
    expect(await tarList(path.join(out, tarball!))).toEqual(
      [
        'package/LICENSE',
        'package/README.md',
        'package/dist/index.cjs',
        'package/dist/index.d.cts',
        'package/dist/index.d.ts',
        'package/dist/index.js',
        'package/package.json',
      ].sort(),
    );
  }, 240_000);

  it('a build that leaves a file out stops the pack, naming the file; no tarball is written', async () => {
    const dir = honoCopy((pkg) => {
      pkg.scripts.build = 'node -e ""'; // "succeeds" and builds nothing
    });
    const out = mkdtempSync(path.join(os.tmpdir(), 'hookgate-pack-'));
    made.push(out);
    const failed = await run('npm', ['pack', '--pack-destination', out], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
    }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failed?.code).not.toBe(0);
    expect(failed?.stderr).toMatch(
      /@hookgate\/hono prepack: refusing to pack without dist\/index\.cjs, dist\/index\.js, dist\/index\.d\.ts, dist\/index\.d\.cts \(named in package\.json/,
    );
    expect(readdirSync(out)).toEqual([]);
  }, 240_000);
});
