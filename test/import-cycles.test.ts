// The team's standard, checked: no import circles in any package's sources (nor across packages),
// between files and between folders.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findFolderCycles, findImportCycles, tsFilesUnder } from './helpers/import-cycles.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const packagesDir = path.join(root, 'packages');
const PACKAGES = readdirSync(packagesDir).filter((name) => !name.startsWith('.'));

it('every package is checked', () => {
  expect(PACKAGES).toEqual(expect.arrayContaining(['core', 'emulator', 'client', 'express', 'bullmq']));
});

describe.each(PACKAGES)('@hookgate/%s sources', (pkg) => {
  it('have no import circle', () => {
    const files = tsFilesUnder(path.join(packagesDir, pkg, 'src'));
    expect(files.length).toBeGreaterThan(0);
    const cycles = findImportCycles(files, packagesDir).map((c) => c.map((f) => path.relative(root, f)).join(' → '));
    expect(cycles).toEqual([]);
  });

  it('have no folder that imports a folder that imports it back', () => {
    expect(findFolderCycles(path.join(packagesDir, pkg, 'src'))).toEqual([]);
  });
});

describe('the import-circle finder', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hookgate-cycles-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  };

  it('finds a circle made of a type-only import, a re-export and a folder index', () => {
    write('a.ts', "import { b } from './b.js';\nexport const a = b;\n");
    write('b.ts', "export * from './inner';\nexport const b = 1;\n");
    write('inner/index.ts', "import type { A } from '../c.js';\nexport type X = A;\n");
    write('c.ts', "export type A = typeof import('./a.js');\n");
    write('free.ts', "import { a } from './a.js';\nexport const f = a;\n");
    const cycles = findImportCycles([path.join(dir, 'free.ts')]).map((c) => c.map((f) => path.relative(dir, f)));
    expect(cycles).toEqual([['a.ts', 'b.ts', path.join('inner', 'index.ts'), 'c.ts']]);
  });

  it('reports nothing for a chain without a way back', () => {
    write('x.ts', "import { y } from './y.js';\nexport const x = y;\n");
    write('y.ts', "import { z } from './z.js';\nexport const y = z;\n");
    write('z.ts', 'export const z = 1;\n');
    expect(findImportCycles([path.join(dir, 'x.ts')])).toEqual([]);
  });

  it('finds two folders that import each other through different files, subfolders included', () => {
    write('pkg/index.ts', "export * from './up/top.js';\n");
    write('pkg/leaf.ts', 'export const leaf = 1;\n');
    write(
      'pkg/up/top.ts',
      "import { low } from '../down/low.js';\nimport { leaf } from '../leaf.js';\nexport const top = low + leaf;\n",
    );
    write('pkg/up/types.ts', 'export type Options = { a: number };\n');
    write('pkg/down/low.ts', 'export const low = 1;\n');
    write('pkg/down/deep/uses.ts', "import type { Options } from '../../up/types.js';\nexport type O = Options;\n");
    expect(findImportCycles(tsFilesUnder(path.join(dir, 'pkg')))).toEqual([]);
    expect(findFolderCycles(path.join(dir, 'pkg'))).toEqual([
      [
        `down/ (${path.join('down', 'deep', 'uses.ts')} → ${path.join('up', 'types.ts')})`,
        `up/ (${path.join('up', 'top.ts')} → ${path.join('down', 'low.ts')})`,
      ],
    ]);
  });

  it('counts no circle through the files beside the folders (entries and shared leaves)', () => {
    write('flat/index.ts', "export * from './a/one.js';\n");
    write('flat/clock.ts', 'export const now = () => 0;\n');
    write('flat/a/one.ts', "import { now } from '../clock.js';\nexport const one = now();\n");
    expect(findFolderCycles(path.join(dir, 'flat'))).toEqual([]);
  });
});
