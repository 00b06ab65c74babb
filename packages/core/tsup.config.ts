import { defineConfig } from 'tsup';
import { nodeVariants } from '../../scripts/node-variants.js';

// Two builds of the same sources:
// - dist/index.js + dist/index.cjs: runtime-neutral (Workers, browsers, Bun, Deno, Node). No static
//   import of a Node built-in, no code generation from strings.
// - dist/node/*.js: ESM for Node (package.json: the `node` condition of `import`, which Bun and Deno take
//   too), where every source file with a `.node.ts` sibling is replaced by it:
//   src/signatures/node-crypto.node.ts imports node:crypto statically, because ESM on Node 20.0–20.15
//   has neither `process.getBuiltinModule` nor `require` to look it up with (node-crypto.ts does).

export default defineConfig([
  {
    // The main entry and its subpaths share their modules (one copy of each class, so `instanceof`
    // holds across entries), in the CommonJS output too.
    entry: ['src/index.ts', 'src/adapter.ts', 'src/calls.ts', 'src/internal.ts'],
    format: ['esm', 'cjs'],
    splitting: true,
    dts: true,
    sourcemap: false, // unminified output reads as is; maps with sources would double the tarball
    // Everything but the other build's output (the two run side by side).
    clean: ['!node/**'],
    target: 'es2022',
  },
  {
    entry: ['src/index.ts', 'src/adapter.ts', 'src/calls.ts', 'src/internal.ts'],
    outDir: 'dist/node',
    format: ['esm'],
    splitting: true,
    dts: false, // the same API: dist/index.d.ts types both
    sourcemap: false, // unminified output reads as is; maps with sources would double the tarball
    clean: true,
    target: 'es2022',
    removeNodeProtocol: false, // keep `node:crypto` (Deno resolves built-ins only with the prefix)
    platform: 'node',
    esbuildPlugins: [nodeVariants],
  },
]);
