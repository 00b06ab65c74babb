// The packages' doc comments are user-facing: they ship in dist/*.d.ts (an editor's hover) and make
// the API reference. They must not name the project's internal spec ("seed", "§2.3"): a rule is
// named by what it is ("the tracking API requires a userId or an anonymousId"), not by a section
// of a document users never see. Reads every source file of every package.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packagesDir = fileURLToPath(new URL('../packages', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return /\.(ts|tsx|mts|cts)$/.test(name) && !name.endsWith('.d.ts') ? [file] : [];
  });
}

/** Comment lines that say "seed" (not "seeded") or carry a section sign. */
function internalWords(file: string): string[] {
  const hits: string[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const comment = line.match(/(?:\/\/|\/\*\*?|^\s*\*)(.*)$/)?.[1];
      if (comment !== undefined && (/\bseed(?:'s|s)?\b/i.test(comment) || comment.includes('§'))) {
        hits.push(`${path.relative(packagesDir, file)}:${i + 1}: ${line.trim()}`);
      }
    });
  return hits;
}

describe('doc comments of every package', () => {
  const packages = readdirSync(packagesDir).filter((name) =>
    statSync(path.join(packagesDir, name, 'src'), { throwIfNoEntry: false })?.isDirectory(),
  );
  it.each(packages)('packages/%s/src says no "seed" and no "§" in its comments', (name) => {
    expect(sourceFiles(path.join(packagesDir, name, 'src')).flatMap(internalWords)).toEqual([]);
  });
});
