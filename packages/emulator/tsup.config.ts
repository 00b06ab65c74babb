import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  // import.meta.url in the CJS build (the inspector finds its page next to the module).
  shims: true,
  // Only a checkout running from sources builds the page on the fly; the package ships dist/inspector/.
  external: ['esbuild'],
});
