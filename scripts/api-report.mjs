#!/usr/bin/env node
// `pnpm api:check` (part of `pnpm test`) and `pnpm api:update`: each package's public API, as users
// import it, read by API Extractor from the built declarations (run `pnpm build` first) and compared
// with the reports committed beside the package: `packages/<name>/api/<name>.api.md` for the main
// entry, `<name>-<subpath>.api.md` for each public subpath of its exports map (core's `./adapter`
// and `./calls`; `./internal` promises no stability and has none).
//
// - A type that an entry's export names in its signature but the entry does not export is an error
//   (`ae-forgotten-export`): users could not name it. A subpath may name a type of its package's
//   main entry (adapters import `ReceiverOptions` from `@hookgate/core`). A type that comes from an
//   internal entry (`@hookgate/core/internal`) is an error too.
// - A report that differs from the committed one fails the check and prints the difference, so a
//   change to what users can import shows in review. `pnpm api:update` (builds, then rewrites the
//   reports) is the one command that accepts the change; commit the reports it writes.
//
// `node scripts/api-report.mjs [--update] [--root=<dir>] [package...]`: some packages only (names as in packages/).
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Extractor, ExtractorConfig, ExtractorLogLevel } from '@microsoft/api-extractor';

const args = process.argv.slice(2);
// --root=<dir>: another workspace (its packages/ folder) instead of this one; the script's own test uses it.
const root = path.resolve(
  args.find((a) => a.startsWith('--root='))?.slice('--root='.length) ?? fileURLToPath(new URL('..', import.meta.url)),
);
const update = args.includes('--update');
const wanted = args.filter((a) => !a.startsWith('-'));
const packages = readdirSync(path.join(root, 'packages')).filter(
  (name) =>
    existsSync(path.join(root, 'packages', name, 'package.json')) && (wanted.length === 0 || wanted.includes(name)),
);

/** The entries a package promises: its exports map's keys with ESM types, but `./internal`; the main entry first. */
function entriesOf(name) {
  const manifest = JSON.parse(readFileSync(path.join(root, 'packages', name, 'package.json'), 'utf8'));
  return Object.entries(manifest.exports ?? {})
    .filter(([key, target]) => key !== './internal' && typeof target === 'object' && target.import?.types)
    .map(([key, target]) => ({
      subpath: key === '.' ? undefined : key.slice(2),
      types: target.import.types.replace(/^\.\//, ''),
    }))
    .sort((a, b) => (a.subpath === undefined ? -1 : b.subpath === undefined ? 1 : 0));
}

/** API Extractor's settings for one entry: the report only (no rollup, no doc model). */
function configOf(name, entry, reportFileName) {
  return {
    projectFolder: path.join(root, 'packages', name),
    mainEntryPointFilePath: `<projectFolder>/${entry.types}`,
    bundledPackages: [],
    compiler: {
      // The declarations as users compile against them: @hookgate/* through node_modules to dist/ (no
      // `paths` to the sources), Node's and the DOM's types, as the packages are built.
      overrideTsconfig: {
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          lib: ['ES2023', 'DOM'],
          types: ['node'],
          strict: true,
          skipLibCheck: true,
        },
        files: [entry.types],
      },
    },
    apiReport: {
      enabled: true,
      reportFileName,
      reportFolder: '<projectFolder>/api/',
      reportTempFolder: '<projectFolder>/node_modules/.cache/api-report/',
      includeForgottenExports: false,
    },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    newlineKind: 'lf',
    messages: {
      compilerMessageReporting: { default: { logLevel: 'error' } },
      extractorMessageReporting: {
        default: { logLevel: 'warning', addToApiReportFile: false },
        'ae-forgotten-export': { logLevel: 'error', addToApiReportFile: false },
        // The report is the review artefact; release tags (@public/@beta) are not used here.
        'ae-missing-release-tag': { logLevel: 'none' },
        // tsup names bundled declaration chunks by hash; their names are not the API.
        'ae-unresolved-link': { logLevel: 'none' },
        // Members without a comment: the rule for this repository is a doc comment with an @example on
        // each export, which test/public-docs.test.ts checks; a property's name often says enough.
        'ae-undocumented': { logLevel: 'none' },
      },
      tsdocMessageReporting: { default: { logLevel: 'none' } },
    },
  };
}

/** The names a report declares (`export function x`, `export interface X`, …). */
function declaredIn(report) {
  return new Set(
    [
      ...report.matchAll(
        /^export (?:declare )?(?:abstract )?(?:function|class|interface|type|const|let|enum|namespace) (\w+)/gm,
      ),
    ].map((m) => m[1]),
  );
}

/** Runs API Extractor on one entry; prints one line, and what is wrong; true when all is well. */
function checkEntry(name, entry, mainNames) {
  const dir = path.join(root, 'packages', name);
  const reportFileName = entry.subpath === undefined ? `${name}.api.md` : `${name}-${entry.subpath}.api.md`;
  const label = entry.subpath === undefined ? name : `${name}/${entry.subpath}`;
  if (!existsSync(path.join(dir, entry.types))) {
    console.error(`${label}: no ${entry.types}: run pnpm build first.`);
    return { ok: false };
  }
  mkdirSync(path.join(dir, 'api'), { recursive: true });
  const started = performance.now();
  const config = ExtractorConfig.prepare({
    configObject: configOf(name, entry, reportFileName),
    configObjectFullPath: path.join(dir, 'api-extractor.json'), // not read: where relative paths start
    packageJsonFullPath: path.join(dir, 'package.json'),
  });
  const problems = [];
  const result = Extractor.invoke(config, {
    localBuild: update,
    showVerboseMessages: false,
    messageCallback(message) {
      message.handled = true;
      const serious = message.logLevel === ExtractorLogLevel.Error || message.logLevel === ExtractorLogLevel.Warning;
      // console-* messages are API Extractor's own notes ("report created", "report changed"), said below.
      if (!serious || message.messageId.startsWith('console-')) return;
      const forgotten = message.messageId === 'ae-forgotten-export' ? /"(\w+)"/.exec(message.text)?.[1] : undefined;
      if (forgotten !== undefined && mainNames?.has(forgotten)) return; // importable from the main entry
      problems.push(message.formatMessageWithLocation(dir + path.sep));
    },
  });
  const ms = Math.round(performance.now() - started);
  const fresh = path.join(dir, 'node_modules', '.cache', 'api-report', reportFileName);
  const report = existsSync(fresh) ? readFileSync(fresh, 'utf8') : '';
  for (const line of report.split('\n')) {
    if (/ from '@hookgate\/[a-z-]+\/internal';$/.test(line))
      problems.push(`${line}: a public signature names a type users can only import from an internal entry`);
  }
  const names = declaredIn(report);
  if (problems.length === 0 && (update || !result.apiReportChanged)) {
    console.log(`${label}: API report ${result.apiReportChanged ? 'updated' : 'up to date'} (${ms} ms)`);
    return { ok: true, names };
  }
  console.error(
    `${label}: ${problems.length > 0 ? `${problems.length} problem(s)` : 'API report out of date'} (${ms} ms)`,
  );
  for (const p of problems) console.error(`  ${p}`);
  const committed = path.join(dir, 'api', reportFileName);
  if (result.apiReportChanged && !update) {
    console.error(
      `  ${path.relative(root, committed)} is out of date: what users can import changed. If that is meant, run pnpm api:update and commit the report.`,
    );
    if (existsSync(committed)) console.error(lineDiff(readFileSync(committed, 'utf8'), report));
  }
  return { ok: false, names };
}

let failed = 0;
for (const name of packages) {
  let mainNames;
  for (const entry of entriesOf(name)) {
    const { ok, names } = checkEntry(name, entry, mainNames);
    if (!ok) failed++;
    if (entry.subpath === undefined) mainNames = names;
  }
}
process.exitCode = failed === 0 ? 0 : 1;

/** The lines only in `before` (-) and only in `after` (+), in order: enough to see what changed. */
function lineDiff(before, after) {
  const a = new Set(before.split('\n'));
  const b = new Set(after.split('\n'));
  const gone = [...a].filter((l) => !b.has(l)).map((l) => `  - ${l}`);
  const added = [...b].filter((l) => !a.has(l)).map((l) => `  + ${l}`);
  return [...gone, ...added].slice(0, 80).join('\n');
}
