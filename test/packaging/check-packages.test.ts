// `pnpm check:packages` (scripts/check-packages.mjs) on small packages made here, each with a subpath export beside
// its root: one that TypeScript's node10 resolution cannot follow (no typesVersions), which the check must refuse
// and name; the same package with typesVersions, which it must pass; one whose package.json names a file the
// tarball lacks (publint); one whose modules import chunks it lacks; one that ignores an attw rule without saying
// why. The workspace's own packages are checked by `pnpm test` itself (after the build); this pins that the check
// sees every subpath, not only ".".
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
let scratch = '';

/** A dual ESM/CJS package with types for both, a root entry and an `./adapter` subpath, packed with tar as npm would. */
function makeTarball(name: string, extra: Record<string, unknown>, sources: Record<string, string> = {}): string {
  const dir = path.join(scratch, name, 'package');
  mkdirSync(path.join(dir, 'dist'), { recursive: true });
  for (const entry of ['index', 'adapter']) {
    writeFileSync(path.join(dir, 'dist', `${entry}.js`), `export const ${entry} = 1;\n`);
    writeFileSync(path.join(dir, 'dist', `${entry}.cjs`), `'use strict';\nexports.${entry} = 1;\n`);
    writeFileSync(path.join(dir, 'dist', `${entry}.d.ts`), `export declare const ${entry}: number;\n`);
    writeFileSync(path.join(dir, 'dist', `${entry}.d.cts`), `export declare const ${entry}: number;\n`);
  }
  for (const [file, text] of Object.entries(sources)) writeFileSync(path.join(dir, 'dist', file), text);
  const conditions = (entry: string) => ({
    import: { types: `./dist/${entry}.d.ts`, default: `./dist/${entry}.js` },
    require: { types: `./dist/${entry}.d.cts`, default: `./dist/${entry}.cjs` },
  });
  const manifest = {
    name: `@scratch/${name}`,
    version: '1.0.0',
    license: 'MIT',
    type: 'module',
    main: './dist/index.cjs',
    module: './dist/index.js',
    types: './dist/index.d.ts',
    exports: { '.': conditions('index'), './adapter': conditions('adapter'), './package.json': './package.json' },
    files: ['dist'],
    ...extra,
  };
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  const tarball = path.join(scratch, `${name}-1.0.0.tgz`);
  execFileSync('tar', ['-czf', tarball, '-C', path.dirname(dir), 'package']);
  return tarball;
}

async function check(tarball: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(root, 'scripts/check-packages.mjs'), tarball], {
      cwd: root,
      encoding: 'utf8',
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  }
}

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'hookgate-check-packages-test-'));
});
afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('pnpm check:packages', () => {
  it('refuses a subpath export that node10 resolution cannot type, naming the subpath', async () => {
    const { code, output } = await check(makeTarball('untyped-subpath', {}));
    expect(code).toBe(1);
    expect(output).toContain('FAIL @scratch/untyped-subpath@1.0.0');
    expect(output).toMatch(/"@scratch\/untyped-subpath\/adapter"\s*│\s*Resolution failed/);
    expect(output).toContain('check:packages found problems');
  });

  it('passes the same package once typesVersions maps the subpath for node10', async () => {
    const tarball = makeTarball('typed-subpath', { typesVersions: { '*': { adapter: ['./dist/adapter.d.ts'] } } });
    const { code, output } = await check(tarball);
    expect(output).toContain('ok @scratch/typed-subpath@1.0.0: packed imports, publint --strict, attw');
    expect(output).toContain('on ., ./adapter');
    expect(code).toBe(0);
  });

  it('refuses a package.json that names a file the tarball lacks (publint)', async () => {
    const tarball = makeTarball('missing-file', {
      typesVersions: { '*': { adapter: ['./dist/adapter.d.ts'] } },
      module: './dist/index.mjs',
    });
    const { code, output } = await check(tarball);
    expect(code).toBe(1);
    expect(output).toContain('FAIL @scratch/missing-file@1.0.0');
    expect(output).toMatch(/publint run .*missing-file-1\.0\.0\.tgz --strict[\s\S]*dist\/index\.mjs/);
  });

  it('refuses modules that import a chunk the tarball lacks, naming each, statically, lazily and by require', async () => {
    const tarball = makeTarball(
      'missing-chunk',
      { typesVersions: { '*': { adapter: ['./dist/adapter.d.ts'] } } },
      {
        'index.js': 'import { a } from "./chunk-AB12CD34.js";\nexport const index = a;\n',
        'adapter.js': 'export const adapter = 1;\nexport const load = () => import("./lazy-EF56GH78.js");\n',
        'adapter.cjs': '\'use strict\';\nexports.adapter = require("./chunk-AB12CD34.cjs").a;\n',
      },
    );
    const { code, output } = await check(tarball);
    expect(code).toBe(1);
    expect(output).toContain('FAIL @scratch/missing-chunk@1.0.0');
    expect(output).toContain('dist/index.js imports ./chunk-AB12CD34.js');
    expect(output).toContain('dist/adapter.js imports ./lazy-EF56GH78.js');
    expect(output).toContain('dist/adapter.cjs imports ./chunk-AB12CD34.cjs');
  });

  it('refuses an attw rule ignored without a reason', async () => {
    const tarball = makeTarball('unexplained-ignore', { attw: { ignoreRules: ['no-resolution'] } });
    const { code, output } = await check(tarball);
    expect(code).toBe(1);
    expect(output).toContain('"attw.ignoreRules" needs a "reason"');
  });

  it('holds each tarball and the Workers bundle to their budgets, naming what is over and what may not be in it', async () => {
    const { checkSizeBudgets, unpackedBytes } = await import('../../scripts/size-budget.mjs');
    const tarball = makeTarball('sized', {}, { 'big.js': 'x'.repeat(20_000) });
    const size = unpackedBytes(tarball);
    expect(size).toBeGreaterThan(20_000);
    const share = { gzip: 31 * 1024, minified: 0, inputs: [{ file: 'node_modules/re2js/build/index.js', bytes: 9 }] };
    const budgets = (tarballBytes: number) => ({
      tarballs: { '@scratch/sized': tarballBytes },
      workersBundle: { gzip: 30 * 1024, forbidden: ['re2js'] },
    });
    const over = await checkSizeBudgets([{ name: '@scratch/sized', tarball }], budgets(size - 1), async () => share);
    expect(over.failures).toEqual([
      expect.stringMatching(/^@scratch\/sized: unpacks to .* KB, over its budget of .* KB$/),
      expect.stringMatching(
        /hookgate's share is 31\.0 KB gzip, over its budget of 30\.0 KB; biggest inputs: node_modules\/re2js/,
      ),
      'the no-plan Workers bundle holds node_modules/re2js/build/index.js (none may be in it)',
    ]);
    const within = await checkSizeBudgets([{ name: '@scratch/sized', tarball }], budgets(size), async () => ({
      ...share,
      gzip: 1024,
      inputs: [],
    }));
    expect(within.failures).toEqual([]);
    const unbudgeted = await checkSizeBudgets([{ name: '@scratch/other', tarball }], budgets(size), async () => share);
    expect(unbudgeted.failures[0]).toBe('@scratch/other: no size budget in scripts/size-budgets.json (add one)');
  });
});
