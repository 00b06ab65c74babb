#!/usr/bin/env node
// `pnpm pack:all [--out <dir>]`: packs every package of the workspace into an npm tarball, as
// `pnpm publish` would upload it (`workspace:` ranges resolved to the real versions). Run it after
// `pnpm build`; it refuses to pack a package whose dist/ is missing. Prints one tarball path a line.
//
// Install them anywhere with plain npm, before the packages are on the registry:
//   npm install /path/to/packed/hookgate-core-0.1.0.tgz /path/to/packed/hookgate-express-0.1.0.tgz
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outFlag = process.argv.indexOf('--out');
const out = path.resolve(outFlag === -1 ? path.join(root, 'packed') : (process.argv[outFlag + 1] ?? ''));
if (outFlag !== -1 && !process.argv[outFlag + 1]) {
  console.error('usage: node scripts/pack.mjs [--out <dir>]');
  process.exit(2);
}

/** pnpm itself: the one running this script when started by `pnpm pack:all`, otherwise `npx -y pnpm@10`. */
function pnpm(args, cwd) {
  const execpath = process.env.npm_execpath ?? '';
  if (/pnpm/.test(path.basename(execpath)) && existsSync(execpath)) {
    return execFileSync(process.execPath, [execpath, ...args], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
  }
  return execFileSync('npx', ['-y', 'pnpm@10', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

mkdirSync(out, { recursive: true });
const packed = [];
for (const name of readdirSync(path.join(root, 'packages')).sort()) {
  const dir = path.join(root, 'packages', name);
  if (!existsSync(path.join(dir, 'package.json'))) continue;
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  if (pkg.private) continue;
  if (!existsSync(path.join(dir, 'dist'))) {
    console.error(`${pkg.name}: packages/${name}/dist is missing. Run \`pnpm build\` first.`);
    process.exit(1);
  }
  const tarball = path.join(out, `${pkg.name.replace('@', '').replace('/', '-')}-${pkg.version}.tgz`);
  rmSync(tarball, { force: true }); // so a tarball listed below is always this run's
  packed.push(tarball);
}
// One recursive `pnpm pack`: it rewrites each `workspace:` range to the version it points at.
pnpm(['-r', '--filter', './packages/*', 'pack', '--pack-destination', out], root);
for (const tarball of packed) {
  if (!existsSync(tarball)) {
    console.error(`pnpm pack did not write ${tarball}`);
    process.exit(1);
  }
  console.log(tarball);
}
