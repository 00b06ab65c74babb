// @segment/actions-core (the Webhooks (Actions) mapping kit the emulator runs) requires `liquidjs`
// without declaring it. In this workspace another package brings it; in a user's plain npm project,
// installed from the tarball, nothing did, and every Actions source failed at creation with
// "is not a valid mapping: Cannot find module 'liquidjs'". So the emulator declares every package
// its Segment dependencies require but do not declare. This reads the code they actually ship.
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const emulatorDir = fileURLToPath(new URL('../..', import.meta.url));
const emulatorPkg = JSON.parse(readFileSync(path.join(emulatorDir, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

/** The bare package names a package's shipped JavaScript requires or imports, with a file for each. */
function requiredPackages(packageRoot: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (/\.(c|m)?js$/.test(name)) {
        const text = readFileSync(file, 'utf8');
        for (const m of text.matchAll(/(?:require\(|from |import\()\s*["']([^"'.][^"']*)["']/g)) {
          const spec = m[1] as string;
          const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string);
          if (!spec.startsWith('node:') && !builtinModules.includes(pkg))
            found.set(pkg, path.relative(packageRoot, file));
        }
      }
    }
  };
  walk(path.join(packageRoot, 'dist'));
  return found;
}

describe("the emulator's Segment dependencies", () => {
  it.each(['@segment/actions-core', '@segment/destination-subscriptions'])(
    '%s: every package its code requires is declared by it or by the emulator',
    (name) => {
      const root = realpathSync(path.join(emulatorDir, 'node_modules', name)); // as installed for the emulator
      const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<
        string,
        Record<string, string> | undefined
      >;
      const declared = new Set([
        name,
        ...Object.keys(pkg.dependencies ?? {}),
        ...Object.keys(pkg.peerDependencies ?? {}),
        ...Object.keys(pkg.optionalDependencies ?? {}),
        ...Object.keys(emulatorPkg.dependencies),
      ]);
      const missing = [...requiredPackages(root)]
        .filter(([dep]) => !declared.has(dep))
        .map(([dep, file]) => `${dep} (required by ${name}/${file})`);
      expect(missing).toEqual([]);
    },
  );
});
