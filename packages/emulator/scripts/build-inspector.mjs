// Builds the web inspector's page into dist/inspector/ (index.html, app.js, app.css) with esbuild,
// after tsup: the package ships it, so `hookgate serve` works offline, with no CDN.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ui = path.join(root, 'inspector-ui');
const out = path.join(root, 'dist', 'inspector');
mkdirSync(out, { recursive: true });
const result = await build({
  entryPoints: [path.join(ui, 'src', 'main.ts')],
  bundle: true,
  format: 'iife',
  target: 'es2020',
  minify: true,
  write: false,
  legalComments: 'none',
  logLevel: 'warning',
});
const js = result.outputFiles[0];
if (!js) throw new Error('esbuild produced no inspector bundle');
writeFileSync(path.join(out, 'app.js'), js.contents);
copyFileSync(path.join(ui, 'index.html'), path.join(out, 'index.html'));
copyFileSync(path.join(ui, 'styles.css'), path.join(out, 'app.css'));
console.log(`inspector page: ${path.relative(process.cwd(), out)}/ (app.js ${js.contents.length} bytes)`);
