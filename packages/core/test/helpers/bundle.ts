// Bundles @hookgate/core from source with every dependency inlined (as a Workers bundler would), into a
// temporary directory, with the esbuild binary tsup already brings.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
export const coreSrc = join(repoRoot, 'packages/core/src');

export interface CoreBundle {
  dir: string;
  /** The ESM bundle: `import * as core from file`. */
  file: string;
  remove(): void;
}

/**
 * Builds `core-node.mjs` as dist/node/index.js is built (every `.node.ts` variant swapped in by
 * scripts/node-variants.ts), with every dependency inlined so that it runs from a temporary directory.
 */
export async function bundleCoreForNode(): Promise<CoreBundle> {
  const { build } = await import('esbuild');
  const { nodeVariants } = await import('../../../../scripts/node-variants.js');
  const dir = mkdtempSync(join(tmpdir(), 'hookgate-core-node-'));
  const file = join(dir, 'core-node.mjs');
  await build({
    entryPoints: [join(coreSrc, 'index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    outfile: file,
    logLevel: 'error',
    plugins: [nodeVariants],
    // Ajv and ajv-formats are CommonJS: give the ESM bundle a `require` for their built-ins.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  return { dir, file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Builds `core.mjs` (ESM, platform neutral: no Node built-ins assumed) and returns its path. */
export function bundleCore(): CoreBundle {
  const dir = mkdtempSync(join(tmpdir(), 'hookgate-core-'));
  const file = join(dir, 'core.mjs');
  execFileSync(
    join(repoRoot, 'node_modules/.bin/esbuild'),
    [
      join(coreSrc, 'index.ts'),
      '--bundle',
      '--format=esm',
      '--platform=neutral',
      '--main-fields=module,main',
      '--target=es2022',
      `--outfile=${file}`,
      '--log-level=error',
    ],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return { dir, file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
