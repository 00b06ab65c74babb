import { defineConfig } from 'tsup';
import { nodeVariants } from '../../scripts/node-variants.js';

// Two builds of the same sources, as core has them:
// - dist/index.js + dist/index.cjs: runtime-neutral (Workers, browsers, Bun, Deno, Node): no code generation
//   from strings; src/schema-compiler.ts interprets each rule's schema (@cfworker/json-schema, RE2 patterns);
// - dist/node/*.js: ESM for Node (the `node` condition of `import`), where src/schema-compiler.node.ts
//   compiles each rule with Ajv instead (code generation, which Workers forbid).
const entry = ['src/index.ts', 'src/internal.ts'];

export default defineConfig([
  {
    entry,
    format: ['esm', 'cjs'],
    splitting: true,
    dts: true,
    sourcemap: false, // unminified output reads as is; maps with sources would double the tarball
    clean: ['!node/**'],
    target: 'es2022',
  },
  {
    entry,
    outDir: 'dist/node',
    format: ['esm'],
    splitting: true,
    dts: false, // the same API: dist/index.d.ts types both
    sourcemap: false,
    clean: true,
    target: 'es2022',
    platform: 'node',
    esbuildPlugins: [nodeVariants],
  },
]);
