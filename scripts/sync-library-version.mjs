#!/usr/bin/env node
// Run after `changeset version` (`pnpm version-packages` does): @hookgate/client reports its own name and version in
// every batch (`context.library`, the User-Agent), from a constant in packages/client/src/version.ts so that the
// sources, the ESM and the CJS builds agree without reading package.json at run time. This writes the version that
// `changeset version` gave packages/client/package.json into that constant (packages/client/test/batching.test.ts
// fails when the two differ).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../packages/client/', import.meta.url));
const { version } = JSON.parse(readFileSync(`${dir}package.json`, 'utf8'));
const file = `${dir}src/version.ts`;
const before = readFileSync(file, 'utf8');
const after = before
  .replace(/(name: '@hookgate\/client', version: ')[^']*(')/, `$1${version}$2`)
  .replace(/(\/\/ "@hookgate\/client@)[^"]*(")/, `$1${version}$2`);
if (!after.includes(`version: '${version}'`)) {
  console.error(
    `sync-library-version: could not find the LIBRARY constant's version in ${file}; set it to ${version} by hand`,
  );
  process.exit(1);
}
if (after !== before) {
  writeFileSync(file, after);
  console.log(`@hookgate/client: LIBRARY.version is now ${version} (packages/client/src/version.ts)`);
}
