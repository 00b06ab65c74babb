#!/usr/bin/env node
// `pnpm release`: everything a release needs short of publishing. It
//   1. versions the packages: `pnpm version-packages` (`changeset version`, which turns the changesets in
//      .changeset/ into version bumps and CHANGELOG.md entries, then scripts/sync-library-version.mjs);
//   2. builds every package (`pnpm build`);
//   3. packs every package into packed/ (`pnpm pack:all`: the tarballs `pnpm publish` would upload).
// It stops there. Publishing needs the npm credentials, which only the release workflow
// (.github/workflows/release.yml) has: it publishes, with provenance, when a maintainer merges the version PR.
// Review the result with `git diff`; `git restore .changeset packages` undoes a trial run.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Runs a package.json script with the pnpm that started us (or `npx -y pnpm@10`), its output shown as it comes. */
function pnpm(...args) {
  const execpath = process.env.npm_execpath ?? '';
  const [command, prefix] =
    /pnpm/.test(path.basename(execpath)) && existsSync(execpath)
      ? [process.execPath, [execpath]]
      : ['npx', ['-y', 'pnpm@10']];
  console.log(`\n> pnpm ${args.join(' ')}`);
  execFileSync(command, [...prefix, ...args], { cwd: root, stdio: 'inherit' });
}

try {
  pnpm('version-packages');
  pnpm('build');
  pnpm('pack:all');
} catch {
  console.error('\nrelease: a step failed (its output is above); nothing was published.');
  process.exit(1);
}
console.log(`
release: versioned, built and packed into packed/. Nothing was published: publishing needs the npm
credentials, and is done by the release workflow (.github/workflows/release.yml) when a maintainer
merges the changesets' version PR (npm publish --provenance). Commit the version bumps and changelogs
in a pull request, or undo a trial run with git.`);
