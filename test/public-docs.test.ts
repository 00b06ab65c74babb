// The team's standard, checked: every public export carries a doc comment with an `@example`.
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const PACKAGES = ['core', 'express', 'fastify', 'hono', 'emulator', 'client', 'redis'] as const;

const program = ts.createProgram(
  PACKAGES.map((p) => `${root}packages/${p}/src/index.ts`),
  { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, strict: true, skipLibCheck: true, noEmit: true },
);
const checker = program.getTypeChecker();

function undocumented(pkg: string): string[] {
  const file = program.getSourceFile(`${root}packages/${pkg}/src/index.ts`);
  if (!file) throw new Error(`no index for ${pkg}`);
  const moduleSymbol = checker.getSymbolAtLocation(file);
  if (!moduleSymbol) return [];
  const missing: string[] = [];
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declarations = symbol.getDeclarations() ?? [];
    // Only what this package declares: re-exports of other packages are documented there.
    const own = declarations.filter((d) => d.getSourceFile().fileName.startsWith(`${root}packages/${pkg}/`));
    if (own.length === 0) continue;
    const docs = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
    const hasExample = symbol.getJsDocTags(checker).some((t) => t.name === 'example');
    if (!docs || !hasExample) missing.push(`${exported.getName()}${docs ? ' (no @example)' : ' (no doc comment)'}`);
  }
  return missing;
}

describe.each(PACKAGES)('@hookgate/%s public exports', (pkg) => {
  it('each have a doc comment and an @example', () => {
    expect(undocumented(pkg)).toEqual([]);
  });
});
