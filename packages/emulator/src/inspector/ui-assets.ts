import { existsSync, readFileSync } from 'node:fs';
import type * as EsbuildModule from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The page's files: `index.html`, `app.js` and `app.css`, as served (no CDN, no inline script).
 *
 * @example
 * const assets = await loadUiAssets();
 * res.end(assets.files['app.js']);
 */
export interface UiAssets {
  /** Where they came from: the built bundle in `dist/inspector/`, or built now from `inspector-ui/` sources. */
  origin: 'dist' | 'sources';
  dir: string;
  files: Readonly<Record<'index.html' | 'app.js' | 'app.css', Buffer>>;
}

/** The names of the bundle's files. */
export const UI_FILES = ['index.html', 'app.js', 'app.css'] as const;

function moduleDir(): string {
  // CJS build: __dirname; ESM build and sources: import.meta.url.
  if (typeof __dirname === 'string') return __dirname;
  return path.dirname(fileURLToPath(import.meta.url));
}

function readDir(dir: string): UiAssets['files'] {
  return Object.fromEntries(UI_FILES.map((f) => [f, readFileSync(path.join(dir, f))])) as UiAssets['files'];
}

/**
 * Builds the page from `inspector-ui/` with esbuild (a devDependency: only a checkout has it), as
 * `scripts/build-inspector.mjs` does at build time.
 *
 * @example
 * const files = await buildUiFromSources('/repo/packages/emulator/inspector-ui');
 */
export async function buildUiFromSources(uiDir: string): Promise<UiAssets['files']> {
  let esbuild: typeof EsbuildModule;
  try {
    esbuild = await import('esbuild');
  } catch {
    throw new Error(
      `The inspector's page is not built, and esbuild (a development tool) is not installed to build it from ${uiDir}: run the package's build.`,
    );
  }
  const result = await esbuild.build({
    entryPoints: [path.join(uiDir, 'src', 'main.ts')],
    bundle: true,
    format: 'iife',
    target: 'es2020',
    minify: true,
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
    banner: { js: DEV_BANNER },
  });
  const js = result.outputFiles[0];
  if (!js) throw new Error('esbuild produced no output for the inspector page');
  return {
    'index.html': readFileSync(path.join(uiDir, 'index.html')),
    'app.js': Buffer.from(js.contents),
    'app.css': readFileSync(path.join(uiDir, 'styles.css')),
  };
}

/** The first line of a page built on the fly (so a test can tell it from the shipped bundle). */
export const DEV_BANNER = '/* hookgate inspector: built from inspector-ui/ on the fly (running from sources) */';

let cached: Promise<UiAssets> | undefined;

/**
 * Finds the page's files once: the bundle built into the package (`dist/inspector/`, next to the
 * module), else — when running from the TypeScript sources in a checkout — builds them from
 * `inspector-ui/`. Rejects with the fix when neither is there.
 *
 * @example
 * const { origin } = await loadUiAssets(); // 'dist' once built
 */
export function loadUiAssets(): Promise<UiAssets> {
  cached ??= (async (): Promise<UiAssets> => {
    const here = moduleDir();
    const built = path.join(here, 'inspector');
    if (existsSync(path.join(built, 'app.js'))) return { origin: 'dist', dir: built, files: readDir(built) };
    const uiDir = path.resolve(here, '..', '..', 'inspector-ui');
    if (existsSync(path.join(uiDir, 'src', 'main.ts')))
      return { origin: 'sources', dir: uiDir, files: await buildUiFromSources(uiDir) };
    throw new Error(
      `The inspector's page is missing: no ${built}/app.js. Build the package (pnpm build runs scripts/build-inspector.mjs).`,
    );
  })();
  cached.catch(() => {
    cached = undefined;
  });
  return cached;
}
