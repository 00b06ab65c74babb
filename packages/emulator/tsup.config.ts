import { defineConfig } from 'tsup';

export default defineConfig([
  // The library: ESM + CJS + types.
  {
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: ['!cli.js', '!cli.js.map'], // the CLI's build below runs at the same time into dist/
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
    sourcemap: true,
    clean: false,
    target: 'es2022',
    // Only a checkout running from sources builds the page on the fly; the package ships dist/inspector/.
    external: ['esbuild'],
  },
]);
