#!/usr/bin/env node
// `pnpm api:check` (part of `pnpm test`) and `pnpm api:update`: each package's public API, as users
// import it, read by API Extractor from the built declarations (`dist/index.d.ts`; run `pnpm build`
// first) and compared with the report committed beside the package, `packages/<name>/api/<name>.api.md`.
//
// - A type that a main entry's export names in its signature but the entry does not export is an
//   error (`ae-forgotten-export`): users could not name it. So is one that comes from another
//   package's internal entry (`@hookgate/core/internal`), which promises no stability.
// - A report that differs from the committed one fails the check and prints the difference, so a
//   change to what users can import shows in review. `pnpm api:update` (builds, then rewrites the
//   reports) is the one command that accepts the change; commit the reports it writes.
//
// `node scripts/api-report.mjs [--update] [package...]`: some packages only (names as in packages/).
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Extractor, ExtractorConfig, ExtractorLogLevel } from '@microsoft/api-extractor';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const update = args.includes('--update');
const wanted = args.filter((a) => !a.startsWith('-'));
const packages = readdirSync(path.join(root, 'packages')).filter(
  (name) =>
    existsSync(path.join(root, 'packages', name, 'package.json')) && (wanted.length === 0 || wanted.includes(name)),
);

/** API Extractor's settings for one package: the report only (no rollup, no doc model), errors for what users cannot name. */
function configOf(name) {
  const dir = path.join(root, 'packages', name);
  return {
    projectFolder: dir,
    mainEntryPointFilePath: '<projectFolder>/dist/index.d.ts',
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
        files: ['dist/index.d.ts'],
      },
    },
    apiReport: {
      enabled: true,
      reportFileName: `${name}.api.md`,
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

let failed = 0;
for (const name of packages) {
  const dir = path.join(root, 'packages', name);
  if (!existsSync(path.join(dir, 'dist', 'index.d.ts'))) {
    console.error(`${name}: no dist/index.d.ts: run pnpm build first.`);
    failed++;
    continue;
  }
  mkdirSync(path.join(dir, 'api'), { recursive: true });
  const started = performance.now();
  const config = ExtractorConfig.prepare({
    configObject: configOf(name),
    configObjectFullPath: path.join(dir, 'api-extractor.json'), // not read: where relative paths start
    packageJsonFullPath: path.join(dir, 'package.json'),
  });
  const problems = [];
  const result = Extractor.invoke(config, {
    localBuild: update,
    showVerboseMessages: false,
    messageCallback(message) {
      const serious = message.logLevel === ExtractorLogLevel.Error || message.logLevel === ExtractorLogLevel.Warning;
      // console-* messages are API Extractor's own notes ("report created", "report changed"), said below.
      if (serious && !message.messageId.startsWith('console-')) {
        problems.push(message.formatMessageWithLocation(dir + path.sep));
      }
      message.handled = true;
    },
  });
  const ms = Math.round(performance.now() - started);
  // A type from a package's internal entry in a public signature is as unnameable as a forgotten one.
  const fresh = path.join(dir, 'node_modules', '.cache', 'api-report', `${name}.api.md`);
  for (const line of existsSync(fresh) ? readFileSync(fresh, 'utf8').split('\n') : []) {
    if (/ from '@hookgate\/[a-z-]+\/internal';$/.test(line))
      problems.push(`${line}: a public signature names a type users can only import from an internal entry`);
  }
  if (result.succeeded && problems.length === 0) {
    console.log(`${name}: API report ${result.apiReportChanged ? 'updated' : 'up to date'} (${ms} ms)`);
    continue;
  }
  failed++;
  console.error(
    `${name}: ${problems.length > 0 ? `${problems.length} problem(s)` : 'API report out of date'} (${ms} ms)`,
  );
  for (const p of problems) console.error(`  ${p}`);
  if (result.apiReportChanged && !update) {
    const committed = path.join(dir, 'api', `${name}.api.md`);
    console.error(
      `  ${path.relative(root, committed)} is out of date: what users can import changed. If that is meant, run pnpm api:update and commit the report.`,
    );
    if (existsSync(committed) && existsSync(fresh))
      console.error(lineDiff(readFileSync(committed, 'utf8'), readFileSync(fresh, 'utf8')));
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
