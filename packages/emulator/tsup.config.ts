import { rmSync } from 'node:fs';
import { defineConfig } from 'tsup';

// Both builds below write into dist/ at the same time, so neither cleans it (one would remove what the
// other just wrote: cli.js, or the chunk `hookgate types` loads lazily). It is emptied once, before both.
rmSync(new URL('./dist', import.meta.url), { recursive: true, force: true });

export default defineConfig([
  // The library: ESM + CJS + types.
  {
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: false, // unminified output reads as is; maps with sources would double the tarball
    clean: false,
    target: 'es2022',
    // import.meta.url in the CJS build (the inspector finds its page next to the module).
    shims: true,
    // Only a checkout running from sources builds the page on the fly; the package ships dist/inspector/.
    external: ['esbuild'],
  },
  // The CLI, loaded only by bin/hookgate.js (an ES module): ESM, no types, no CJS twin.
  {
    entry: ['src/cli.ts'],
    format: ['esm'],
    dts: false,
    sourcemap: false, // unminified output reads as is; maps with sources would double the tarball
    clean: false,
    target: 'es2022',
    // Only a checkout running from sources builds the page on the fly; the package ships dist/inspector/.
    external: ['esbuild'],
  },
]);
