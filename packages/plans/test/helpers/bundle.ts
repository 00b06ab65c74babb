// Bundles @hookgate/core and @hookgate/plans from source into one ESM file, every dependency inlined, as
// tsup builds them: the Node build (every `.node.ts` variant swapped in: Ajv) or the runtime-neutral one
// (the @cfworker/json-schema interpreter, as a Workers bundler would take it).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { nodeVariants } from '../../../../scripts/node-variants.js';

const src = (pkg: string, entry = 'index') =>
  fileURLToPath(new URL(`../../../${pkg}/src/${entry}.ts`, import.meta.url));

export interface PlansBundle {
  /** The ESM bundle: `import * as both from file` (core's exports and compileTrackingPlan). */
  file: string;
  remove(): void;
}

/**
 * Builds one bundle of core and plans, for Node or runtime-neutral.
 *
 * @example
 * const node = await bundlePlans('node');
 * const { createReceiver, compileTrackingPlan } = await import(node.file);
 */
export async function bundlePlans(platform: 'node' | 'neutral'): Promise<PlansBundle> {
  const dir = mkdtempSync(join(tmpdir(), `hookgate-plans-${platform}-`));
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    `export * from ${JSON.stringify(src('core'))};\nexport { compileTrackingPlan } from ${JSON.stringify(src('plans'))};\n`,
  );
  const file = join(dir, 'bundle.mjs');
  await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform,
    target: 'es2022',
    outfile: file,
    logLevel: 'error',
    alias: { '@hookgate/core/internal': src('core', 'internal'), '@hookgate/core': src('core') },
    ...(platform === 'node'
      ? {
          plugins: [nodeVariants],
          // Ajv and ajv-formats are CommonJS: give the ESM bundle a `require` for their built-ins.
          banner: {
            js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
          },
        }
      : { mainFields: ['module', 'main'] }),
  });
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
