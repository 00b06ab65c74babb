#!/usr/bin/env node
// `pnpm check:packages`: checks every package as npm users will install it. Run after `pnpm build`
// (`pnpm test` does). It packs each package into a scratch directory with scripts/pack.mjs (the
// tarball `pnpm publish` would upload), then on each tarball runs
//   - publint --strict: the package.json fields, exports map and files against what the tarball holds;
//   - attw (@arethetypeswrong/cli), profile "strict": every entry point of the exports map, subpaths
//     included, resolved for types the four ways TypeScript users resolve it — node10 (the old
//     `moduleResolution: node`), node16 from CommonJS, node16 from ESM, and bundler — each of which
//     must find types that match the JavaScript it loads (ESM types for ESM, `.d.cts` for CJS);
//   - packed imports: every file a packed module imports by a relative path (`from "./chunk-….js"`,
//     `import("./plan-module-….js")`, `require("./chunk-….cjs")`, as the build writes them) is packed
//     too; a `files` list that leaves out a chunk breaks only the code that loads it;
//   - size budgets (scripts/size-budget.mjs): each tarball's unpacked size, and hookgate's share of a no-plan
//     Workers bundle, against scripts/size-budgets.json (the workspace's packages only).
// Prints one line a package when all is well; otherwise the tool's own report, and exits 1.
// An ignore of an attw rule belongs in the package's package.json, under "attw", with its reason.
//
// `node scripts/check-packages.mjs <tarball>...` checks those tarballs instead (the test of this script).
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { checkSizeBudgets } from './size-budget.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const run = promisify(execFile);

/** Runs one check; resolves to its report when it fails, to undefined when it passes. */
async function check(file, args) {
  try {
    await run(file, args, { cwd: root, encoding: 'utf8', maxBuffer: 16 << 20, env: { ...process.env, NO_COLOR: '1' } });
    return undefined;
  } catch (error) {
    return `${path.basename(file)} ${args.join(' ')}\n${error.stdout ?? ''}${error.stderr ?? error.message}`;
  }
}

/** The attw rules a package ignores in its package.json: "attw": { "ignoreRules": [...], "reason": "why" }. */
function ignoredRules(manifest) {
  return manifest.attw?.ignoreRules ?? [];
}

/** attw on one tarball, every entry point of its exports map, the four resolutions; its report when it fails. */
async function attw(tarball, manifest) {
  const rules = ignoredRules(manifest);
  if (rules.length > 0 && !manifest.attw.reason) {
    return `package.json "attw.ignoreRules" needs a "reason" saying why each ignored rule is wrong for this package`;
  }
  const args = [
    '--profile',
    'strict',
    '--no-definitely-typed',
    '--no-emoji',
    '--no-color',
    '--format',
    'table-flipped',
  ];
  return check(bin('attw'), [tarball, ...args, ...(rules.length > 0 ? ['--ignore-rules', ...rules] : [])]);
}

/** A relative module specifier in built JavaScript: static and dynamic imports, re-exports, require. */
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)"(\.\.?\/[^"\n]+)"/g;

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir, prefix = '') {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(dir, path.join(prefix, entry.name)) : [path.join(prefix, entry.name)],
  );
}

/** The modules of a tarball that import a file it lacks; their report, or undefined when there are none. */
function unpackedImports(tarball, into) {
  mkdirSync(into, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', into]);
  const dir = path.join(into, 'package');
  const missing = [];
  for (const file of filesUnder(dir).filter((f) => /\.[cm]?js$/.test(f))) {
    for (const [, specifier] of readFileSync(path.join(dir, file), 'utf8').matchAll(RELATIVE_IMPORT)) {
      if (!existsSync(path.join(dir, path.dirname(file), specifier))) missing.push(`${file} imports ${specifier}`);
    }
  }
  if (missing.length === 0) return undefined;
  return `packed imports: the tarball lacks files its modules import (widen package.json "files", e.g. to "dist"):\n  ${missing.join('\n  ')}`;
}

const started = Date.now();
const scratch = mkdtempSync(path.join(tmpdir(), 'hookgate-check-packages-'));
let failed = false;
try {
  const given = process.argv.slice(2).map((file) => path.resolve(file));
  const tarballs =
    given.length > 0
      ? given
      : execFileSync(process.execPath, [path.join(root, 'scripts/pack.mjs'), '--out', scratch], {
          cwd: root,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'inherit'],
        })
          .trim()
          .split('\n');
  // Two tarballs at a time (each check is CPU-bound: attw loads TypeScript and resolves every entry point).
  const queue = [...tarballs];
  const worker = async () => {
    for (let tarball = queue.shift(); tarball; tarball = queue.shift()) {
      const manifest = JSON.parse(
        execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
      );
      const unpacked = unpackedImports(tarball, path.join(scratch, 'unpacked', path.basename(tarball)));
      const reports = [
        unpacked,
        ...(await Promise.all([check(bin('publint'), ['run', tarball, '--strict']), attw(tarball, manifest)])),
      ].filter(Boolean);
      if (reports.length === 0) {
        const entries = Object.keys(manifest.exports ?? { '.': null }).filter((e) => e !== './package.json');
        console.log(
          `ok ${manifest.name}@${manifest.version}: packed imports, publint --strict, attw (node10, node16 CJS/ESM, bundler) on ${entries.join(', ')}` +
            (ignoredRules(manifest).length > 0 ? ` (ignoring ${ignoredRules(manifest).join(', ')})` : ''),
        );
      } else {
        failed = true;
        console.error(`FAIL ${manifest.name}@${manifest.version}\n${reports.join('\n')}`);
      }
    }
  };
  await Promise.all([worker(), worker()]);
  if (given.length === 0) {
    const packages = tarballs.map((tarball) => ({
      tarball,
      name: JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })).name,
    }));
    const { lines, failures } = await checkSizeBudgets(packages);
    if (failures.length > 0) {
      failed = true;
      console.error(`FAIL size budgets (scripts/size-budgets.json)\n  ${failures.join('\n  ')}`);
    } else console.log(`ok size budgets: ${lines.join('; ')}`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(
  `check:packages ${failed ? 'found problems' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
if (failed) process.exit(1);
