// Versions and release notes (.changeset/, CONTRIBUTING.md "Changesets"): every published package is in the one
// fixed group, so the ten always share a version, and each has a CHANGELOG.md whose newest entry is that version.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const packages = readdirSync(`${root}packages`).map((dir) => ({
  dir,
  ...(JSON.parse(readFileSync(`${root}packages/${dir}/package.json`, 'utf8')) as { name: string; version: string }),
}));
const config = JSON.parse(readFileSync(`${root}.changeset/config.json`, 'utf8')) as {
  fixed: string[][];
  linked: string[][];
  ignore: string[];
  updateInternalDependencies: string;
  access: string;
  baseBranch: string;
};

describe('changesets', () => {
  it('has the ten packages, all in one fixed group and none ignored', () => {
    expect(packages.map((p) => p.name).sort()).toHaveLength(10);
    expect(config.fixed).toEqual([['@hookgate/*']]);
    for (const { name } of packages) expect(name).toMatch(/^@hookgate\/[a-z]+$/);
    expect(config.ignore).toEqual([]);
    expect(config).toMatchObject({ access: 'public', baseBranch: 'main', updateInternalDependencies: 'patch' });
  });

  it('gives every package the same version and a CHANGELOG.md whose newest entry is that version', () => {
    const versions = new Set(packages.map((p) => p.version));
    expect([...versions]).toHaveLength(1);
    for (const { dir, name, version } of packages) {
      const changelog = readFileSync(`${root}packages/${dir}/CHANGELOG.md`, 'utf8');
      expect(changelog.startsWith(`# ${name}\n`), `${dir}/CHANGELOG.md starts with # ${name}`).toBe(true);
      expect(/^## (\S+)$/m.exec(changelog)?.[1], `${dir}/CHANGELOG.md's newest entry`).toBe(version);
    }
  });

  it('keeps the LIBRARY constant of @hookgate/client in step (pnpm version-packages runs this after changeset version)', () => {
    // Same version as package.json: the script must find the constant (a reformatted version.ts would break the
    // version PR) and leave the file as it is.
    const file = `${root}packages/client/src/version.ts`;
    const before = readFileSync(file, 'utf8');
    execFileSync(process.execPath, [`${root}scripts/sync-library-version.mjs`], { cwd: root, stdio: 'pipe' });
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(before).toContain(`version: '${packages.find((p) => p.dir === 'client')?.version}'`);
  });
});
