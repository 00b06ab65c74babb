import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = '@hookgate/emulator';

/**
 * The version of `@hookgate/emulator` that runs this CLI, read from its package.json (found by
 * walking up from this module: `dist/` once built, `src/cli/` from the sources).
 *
 * @example
 * process.stdout.write(`${packageVersion()}\n`); // '0.1.0'
 */
export function packageVersion(): string {
  // ESM has import.meta.url; the CommonJS build has __filename instead.
  let dir = dirname(typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === PACKAGE_NAME && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // no package.json at this level: go up
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  throw new Error(`cannot find the package.json of ${PACKAGE_NAME} above ${dir}`);
}
