#!/usr/bin/env node
// The `prepack` of every package: `pnpm pack` (or `npm pack`, `pnpm publish`) never ships a package
// without its build. Run in the package's directory, it builds the package (and first any workspace
// package it depends on whose build is missing) when a file the package.json points to is missing
// or older than the sources, then checks that every such file exists; if one is still missing it
// exits 1 naming it, so the pack stops instead of shipping LICENSE, package.json and README alone.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Every file a package.json points to: main, module, types, bin, each leaf of exports, and the built files it lists. */
export function entryFiles(pkg) {
  const out = new Set();
  const add = (value) => {
    if (typeof value === 'string') {
      if (!value.includes('*')) out.add(value.replace(/^\.\//, ''));
    } else if (value && typeof value === 'object') for (const v of Object.values(value)) add(v);
  };
  add(pkg.main);
  add(pkg.module);
  add(pkg.types);
  add(pkg.bin);
  add(pkg.exports);
  for (const file of pkg.files ?? []) if (file.startsWith('dist/')) add(file);
  return [...out].filter((file) => file !== 'package.json');
}

/** Newest modification time under `dir` (0 when it does not exist). */
function newest(dir) {
  if (!existsSync(dir)) return 0;
  const stat = statSync(dir);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    latest = Math.max(latest, newest(path.join(dir, name)));
  }
  return latest;
}

/** Entry files missing, or built before the newest source (src/, inspector-ui/, the build config). */
function buildNeeded(dir, pkg) {
  const entries = entryFiles(pkg).filter((f) => f.startsWith('dist/'));
  if (entries.some((f) => !existsSync(path.join(dir, f)))) return true;
  const built = Math.min(...entries.map((f) => statSync(path.join(dir, f)).mtimeMs));
  const sources = Math.max(
    newest(path.join(dir, 'src')),
    newest(path.join(dir, 'inspector-ui')),
    newest(path.join(dir, 'tsup.config.ts')),
  );
  return sources > built;
}

/** Runs the package's own `build` script with the package manager that started us (pnpm or npm). */
function runBuild(dir) {
  const execpath = process.env.npm_execpath ?? '';
  const [command, args] =
    execpath && existsSync(execpath) ? [process.execPath, [execpath, 'run', 'build']] : ['npm', ['run', 'build']];
  execFileSync(command, args, { cwd: dir, stdio: ['ignore', process.stderr, process.stderr] });
}

function readPackage(dir) {
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
}

/** The directory of a workspace dependency, found the way Node finds it from `dir`. */
function workspaceDir(dir, name) {
  for (let at = dir; ; at = path.dirname(at)) {
    const candidate = path.join(at, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return path.dirname(path.join(candidate, 'package.json'));
    if (path.dirname(at) === at) return undefined;
  }
}

function prepack(dir) {
  const pkg = readPackage(dir);
  for (const [name, range] of Object.entries(pkg.dependencies ?? {})) {
    if (!String(range).startsWith('workspace:')) continue;
    const depDir = workspaceDir(dir, name);
    if (!depDir) continue;
    const dep = readPackage(depDir);
    if (entryFiles(dep).some((f) => f.startsWith('dist/') && !existsSync(path.join(depDir, f)))) {
      console.error(`${pkg.name} prepack: building ${name} first (its build is missing)`);
      runBuild(depDir);
    }
  }
  if (buildNeeded(dir, pkg)) {
    console.error(`${pkg.name} prepack: building (the build is missing or older than the sources)`);
    try {
      runBuild(dir);
    } catch {
      console.error(`${pkg.name} prepack: the build failed (its errors are above); nothing was packed.`);
      process.exit(1);
    }
  }
  const missing = entryFiles(pkg).filter((f) => !existsSync(path.join(dir, f)));
  if (missing.length > 0) {
    console.error(
      `${pkg.name} prepack: refusing to pack without ${missing.join(', ')} (named in package.json, still missing after the build). ` +
        `Run the package's build (pnpm --filter ${pkg.name} build) and fix what it reports.`,
    );
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) prepack(process.cwd());
