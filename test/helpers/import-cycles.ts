// Finds import circles among TypeScript sources: every static `import`/`export … from` (type-only
// ones included: a type circle is still a circle in the design) and dynamic `import('…')` with a
// literal, read with the TypeScript compiler's pre-processor (no type checking, fast).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Every `.ts` file under `dir`, recursively. */
export function tsFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...tsFilesUnder(full));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/**
 * The files `file` imports, resolved: relative specifiers (`./x.js` → `./x.ts`, `./dir` →
 * `./dir/index.ts`) and the workspace's packages (`@hookgate/name` → `packages/name/src/index.ts`).
 */
export function importsOf(file: string, packagesDir: string | undefined): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const out: string[] = [];
  for (const { fileName: spec } of info.importedFiles) {
    let target: string | undefined;
    if (spec.startsWith('.')) {
      const base = path.resolve(path.dirname(file), spec);
      const candidates = [base.replace(/\.(m|c)?js$/, '.$1ts'), `${base}.ts`, path.join(base, 'index.ts')];
      target = candidates.find((c) => existsSync(c) && statSync(c).isFile());
    } else if (packagesDir !== undefined && spec.startsWith('@hookgate/')) {
      const index = path.join(packagesDir, spec.slice('@hookgate/'.length), 'src', 'index.ts');
      if (existsSync(index)) target = index;
    }
    if (target !== undefined) out.push(target);
  }
  return out;
}

/**
 * The import circles among `files` (each once, as the list of files around it, starting at its
 * smallest path), found by a depth-first search over the import graph.
 *
 * @example
 * findImportCycles(tsFilesUnder('packages/emulator/src'), 'packages'); // [] when there is none
 */
export function findImportCycles(files: string[], packagesDir?: string): string[][] {
  const graph = new Map<string, string[]>();
  const visit = (f: string) => {
    if (graph.has(f)) return;
    const deps = importsOf(f, packagesDir);
    graph.set(f, deps);
    for (const d of deps) visit(d);
  };
  for (const f of files) visit(f);
  return cyclesIn(graph);
}

/**
 * The circles among the folders of one package's sources: folder A imports folder B when a file
 * under `srcDir/A/` imports a file under `srcDir/B/`. A folder is a top-level folder of `srcDir`
 * with everything under it (`receiver/steps/` is part of `receiver/`); files directly in `srcDir` (the
 * package's entries and its few shared leaves) belong to no folder. Each circle comes once, as the
 * folder names around it, each with the first import that makes the step (`a/x.ts → b/y.ts`).
 *
 * @example
 * findFolderCycles('packages/core/src'); // [] when no folder imports a folder that imports it back
 */
export function findFolderCycles(srcDir: string): string[][] {
  const folderOf = (file: string): string | undefined => {
    const rel = path.relative(srcDir, file);
    const parts = rel.split(path.sep);
    return rel.startsWith('..') || parts.length < 2 ? undefined : parts[0];
  };
  const graph = new Map<string, string[]>();
  const because = new Map<string, string>();
  for (const file of tsFilesUnder(srcDir)) {
    const from = folderOf(file);
    if (from === undefined) continue;
    const deps = graph.get(from) ?? [];
    graph.set(from, deps);
    for (const target of importsOf(file, undefined)) {
      const to = folderOf(target);
      if (to === undefined || to === from) continue;
      if (!deps.includes(to)) deps.push(to);
      const step = `${from} → ${to}`;
      if (!because.has(step)) because.set(step, `${path.relative(srcDir, file)} → ${path.relative(srcDir, target)}`);
    }
  }
  return cyclesIn(graph).map((cycle) =>
    cycle.map((folder, i) => `${folder}/ (${because.get(`${folder} → ${cycle[(i + 1) % cycle.length]}`)})`),
  );
}

/** The circles of a directed graph, each once, as the nodes around it starting at its smallest. */
function cyclesIn(graph: Map<string, string[]>): string[][] {
  const cycles = new Map<string, string[]>();
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const dfs = (f: string) => {
    state.set(f, 'open');
    stack.push(f);
    for (const d of graph.get(f) ?? []) {
      const s = state.get(d);
      if (s === 'open') {
        const cycle = stack.slice(stack.indexOf(d));
        const min = cycle.indexOf([...cycle].sort()[0] as string);
        const canonical = [...cycle.slice(min), ...cycle.slice(0, min)];
        cycles.set(canonical.join(' → '), canonical);
      } else if (s === undefined) dfs(d);
    }
    stack.pop();
    state.set(f, 'done');
  };
  for (const f of graph.keys()) if (!state.has(f)) dfs(f);
  return [...cycles.values()];
}
