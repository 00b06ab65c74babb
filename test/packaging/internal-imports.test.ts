// `@hookgate/core/internal` promises no stability: a package of ours that imports it must get exactly
// the core it was built with, so it depends on `workspace:*` (published as the exact version; the
// packages are released together, `fixed` in .changeset/config.json). The others, on core's public
// entries only, keep a caret range.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const packages = fileURLToPath(new URL('../../packages', import.meta.url));

function sourcesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

it('pins core exactly wherever @hookgate/core/internal is imported', () => {
  const ranges: Record<string, { internal: boolean; range: string | undefined }> = {};
  for (const name of readdirSync(packages)) {
    if (name === 'core') continue;
    const manifest = JSON.parse(readFileSync(path.join(packages, name, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    const internal = sourcesOf(path.join(packages, name, 'src')).some((file) =>
      readFileSync(file, 'utf8').includes("'@hookgate/core/internal'"),
    );
    const range = manifest.dependencies?.['@hookgate/core'] ?? manifest.peerDependencies?.['@hookgate/core'];
    ranges[name] = { internal, range };
  }
  const wrong = Object.entries(ranges).filter(([, { internal, range }]) => internal && range !== 'workspace:*');
  expect(wrong).toEqual([]);
  expect(Object.values(ranges).some((r) => r.internal)).toBe(true);
});
