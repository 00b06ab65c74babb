// The team's standard, checked: every public export carries a doc comment with an `@example`, and every
// TypeScript block of the READMEs compiles.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const PACKAGES = [
  'core',
  'plans',
  'express',
  'fastify',
  'hono',
  'emulator',
  'client',
  'redis',
  'bullmq',
  'otel',
] as const;

/** Core's public subpaths (`@hookgate/core/adapter`, `@hookgate/core/calls`), documented like a package's main entry. */
const CORE_SUBPATHS = ['adapter', 'calls'] as const;

const program = ts.createProgram(
  [
    ...PACKAGES.map((p) => `${root}packages/${p}/src/index.ts`),
    ...CORE_SUBPATHS.map((e) => `${root}packages/core/src/${e}.ts`),
  ],
  {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  },
);
const checker = program.getTypeChecker();

function undocumented(pkg: string, entry = 'index'): string[] {
  const file = program.getSourceFile(`${root}packages/${pkg}/src/${entry}.ts`);
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

describe.each(CORE_SUBPATHS)('@hookgate/core/%s exports', (entry) => {
  it('each have a doc comment and an @example', () => {
    expect(undocumented('core', entry)).toEqual([]);
  });
});

// Every ```ts block of the READMEs (and docs/*.md) compiles, strict, against the workspace's sources
// (the root tsconfig's paths), each block as a module of its own. A block that is a fragment names what
// it needs in a `declare` line of its own, visible in the README, so the snippet stays honest and runnable.
// A block that is not code (an API summary) says so on the line before its fence, with the reason:
// `<!-- ts-check: skip (why) -->`; skipped blocks are listed in the test's name.
/** The Markdown pages of the docs site (not VitePress's own folders), at any depth. */
function markdownUnder(dir: string): string[] {
  if (!existsSync(`${root}${dir}`)) return [];
  return readdirSync(`${root}${dir}`, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || entry.name === 'public') return [];
    const path = `${dir}/${entry.name}`;
    return entry.isDirectory() ? markdownUnder(path) : entry.name.endsWith('.md') ? [path] : [];
  });
}

const DOCS = [
  'README.md',
  ...readdirSync(`${root}packages`).map((p) => `packages/${p}/README.md`),
  ...markdownUnder('docs'),
].filter((f) => existsSync(`${root}${f}`));

type Snippet = { doc: string; line: number; code: string; skip?: string };

function snippetsOf(doc: string): Snippet[] {
  const lines = readFileSync(`${root}${doc}`, 'utf8').split('\n');
  const found: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*```(ts|typescript)\s*$/.test(lines[i]!)) continue;
    const start = i + 1;
    const body: string[] = [];
    for (i = start; i < lines.length && !/^\s*```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    const skip = /^<!-- ts-check: skip \((.+)\) -->$/.exec(lines[start - 2]?.trim() ?? '')?.[1];
    found.push({ doc, line: start + 1, code: body.join('\n'), ...(skip ? { skip } : {}) });
  }
  return found;
}

const all = DOCS.flatMap(snippetsOf);
const snippets = all.filter((s) => !s.skip);
const skipped = all.filter((s) => s.skip).map((s) => `${s.doc}:${s.line} (${s.skip})`);

describe('TypeScript code blocks in the READMEs', () => {
  it('are found (the extraction itself works)', () => {
    expect(snippets.length).toBeGreaterThan(10);
    expect(snippets.some((s) => s.doc === 'README.md')).toBe(true);
  });

  it(`each type-check under strict, against the workspace sources${skipped.length ? `; not code: ${skipped.join(', ')}` : ''}`, () => {
    const dir = mkdtempSync(`${root}.hookgate-tmp-snippets-`);
    try {
      const files = snippets.map((s, i) => {
        const file = `${dir}/${s.doc.replace(/[/.]/g, '_')}_L${s.line}_${i}.ts`;
        writeFileSync(file, s.code);
        return { file, snippet: s };
      });
      const config = ts.getParsedCommandLineOfConfigFile(
        `${root}tsconfig.json`,
        {},
        { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
      );
      if (!config) throw new Error('cannot read tsconfig.json');
      const snippetProgram = ts.createProgram(
        files.map((f) => f.file),
        { ...config.options, noEmit: true, moduleDetection: ts.ModuleDetectionKind.Force, noUnusedLocals: false },
      );
      const byFile = new Map(files.map((f) => [f.file, f.snippet]));
      const errors = ts.getPreEmitDiagnostics(snippetProgram).map((d) => {
        const snippet = d.file ? byFile.get(d.file.fileName) : undefined;
        const where =
          snippet && d.file && d.start !== undefined
            ? `${snippet.doc}:${snippet.line + d.file.getLineAndCharacterOfPosition(d.start).line}`
            : (d.file?.fileName ?? 'config');
        return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      });
      expect(errors).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
