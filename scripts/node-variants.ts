// The esbuild plugin of core's and plans' Node builds (their tsup.config.ts): `./x.js` → `./x.node.ts`
// where that file exists, so a module has a Node-only variant beside its runtime-neutral one.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Options } from 'tsup';

/**
 * Swaps each relative import for its `.node.ts` sibling when there is one.
 *
 * @example
 * defineConfig({ entry: ['src/index.ts'], platform: 'node', esbuildPlugins: [nodeVariants] });
 */
export const nodeVariants: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'node-variants',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\/.*\.js$/ }, (args) => {
      const variant = path.resolve(args.resolveDir, args.path).replace(/\.js$/, '.node.ts');
      return existsSync(variant) ? { path: variant } : undefined;
    });
  },
};
