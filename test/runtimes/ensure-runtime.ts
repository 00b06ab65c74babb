// Other runtimes (Bun, Deno), fetched from npm the first time a test needs them, not by `pnpm install`:
// their binaries are ~200 MB unpacked and made a fresh machine's first install twice as slow.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The runtimes the cross-runtime tests use: the npm package carrying the binary, its pinned version and its bin. */
export const RUNTIMES = {
  bun: { package: 'bun', version: '1.4.5', bin: 'bun' },
  deno: { package: 'deno', version: '2.9.6', bin: 'deno' },
} as const;

/** A runtime that `ensureRuntime` can fetch: one of `RUNTIMES`, or any npm package that ships a binary. */
export type RuntimeSpec = { readonly package: string; readonly version: string; readonly bin: string };

/** Where fetched runtimes live (inside node_modules, so a clean clone or `rm -rf node_modules` drops them). */
export const RUNTIME_CACHE = path.join(ROOT, 'node_modules', '.cache', 'hookgate-runtimes');

/**
 * The path of a runtime's binary, installing its npm package (pinned version) with npm on first use into
 * `node_modules/.cache/hookgate-runtimes/<package>@<version>`. Later calls reuse it; concurrent first calls
 * each install into a temporary folder and the first rename wins. Throws with npm's own output on failure.
 *
 * @example
 *   const bun = ensureRuntime('bun'); // e.g. …/node_modules/.cache/hookgate-runtimes/bun@1.4.5/node_modules/.bin/bun
 *   spawn(bun, ['--version']);
 */
export function ensureRuntime(runtime: keyof typeof RUNTIMES | RuntimeSpec): string {
  const spec: RuntimeSpec = typeof runtime === 'string' ? RUNTIMES[runtime] : runtime;
  const dir = path.join(RUNTIME_CACHE, `${spec.package}@${spec.version}`);
  const bin = path.join(dir, 'node_modules', '.bin', spec.bin);
  if (existsSync(bin)) return bin;

  mkdirSync(RUNTIME_CACHE, { recursive: true });
  const scratch = mkdtempSync(path.join(RUNTIME_CACHE, `.${spec.package}-`));
  try {
    // A package.json of its own, so npm does not walk up into the pnpm workspace.
    writeFileSync(path.join(scratch, 'package.json'), JSON.stringify({ name: 'hookgate-runtime', private: true }));
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    try {
      execFileSync(
        npm,
        [
          'install',
          '--no-save',
          '--no-package-lock',
          '--no-audit',
          '--no-fund',
          '--prefer-offline',
          '--loglevel=error',
          `${spec.package}@${spec.version}`,
        ],
        { cwd: scratch, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 10 * 60_000 },
      );
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string; message: string };
      throw new Error(
        `could not install ${spec.package}@${spec.version} from npm for the cross-runtime tests: ${e.stderr || e.stdout || e.message}`,
      );
    }
    if (!existsSync(path.join(scratch, 'node_modules', '.bin', spec.bin))) {
      throw new Error(`${spec.package}@${spec.version} installed, but it has no bin named ${spec.bin}`);
    }
    try {
      renameSync(scratch, dir);
    } catch (error) {
      // Another process finished first: use its copy.
      if (!existsSync(bin)) throw error;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return bin;
}
