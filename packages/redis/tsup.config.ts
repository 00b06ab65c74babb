import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: false, // unminified output reads as is; maps with sources would double the tarball
  clean: true,
  target: 'es2022',
});
