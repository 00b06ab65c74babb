// Every bin and every export of the packages as a user gets them: `scripts/pack.mjs` packs every package
// (after `pnpm build`), and a fresh `npm init -y` project installs the tarballs with an empty npm cache
// of its own (nothing reused from earlier installs; the third-party dependencies come from the
// registry). There every `hookgate` command answers `--help`, `types`, `sign` and `fixtures` run for
// real, and every subpath of every package's exports map is imported (ESM) and required (CommonJS),
// by its name and by each file the map names. A file the tarball leaves out (a chunk an entry imports)
// fails here, as it would for a user.
import { execFile, type ExecFileOptions } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const execFileAsync = promisify(execFile);

let scratch = '';
let app = '';
let packages: string[] = [];

/** Runs a command in the app (asynchronously: the worker keeps talking to vitest meanwhile). */
async function run(file: string, args: string[], options: ExecFileOptions & { input?: string } = {}): Promise<string> {
  try {
    const pending = execFileAsync(file, args, { cwd: app, encoding: 'utf8', maxBuffer: 16 << 20, ...options });
    if (options.input !== undefined) pending.child.stdin?.end(options.input);
    return (await pending).stdout as string;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${path.basename(file)} ${args.join(' ')} failed:\n${e.stdout ?? ''}\n${e.stderr ?? e.message}`);
  }
}

const hookgate = (args: string[], input?: string) =>
  run(path.join(app, 'node_modules/.bin/hookgate'), args, { input, env: { ...process.env, NO_COLOR: '1' } });

beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'hookgate-tarball-commands-'));
  app = path.join(scratch, 'app');
  mkdirSync(app);
  const tarballs = (
    await run(process.execPath, [path.join(root, 'scripts/pack.mjs'), '--out', path.join(scratch, 'tarballs')], {
      cwd: root,
    })
  )
    .trim()
    .split('\n');
  await run('npm', ['init', '-y']);
  // An empty cache of its own: nothing an earlier install left behind can stand in for a missing file.
  await run('npm', [
    'install',
    '--cache',
    path.join(scratch, 'npm-cache'),
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    ...tarballs,
  ]);
  packages = tarballs.map((t) => {
    const name = path
      .basename(t)
      .replace(/^hookgate-/, '')
      .replace(/-\d+\.\d+\.\d+.*\.tgz$/, '');
    return `@hookgate/${name}`;
  });
}, 600_000);

// The project and its npm cache are large: removing them takes a while on a loaded machine.
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
}, 180_000);

// Spawned node, npm and tsc processes are slow on a loaded machine: a generous bound, not a timing assertion.
describe('the hookgate bin from the tarballs', { timeout: 120_000 }, () => {
  it('answers --help for every command its own help lists, and --version', async () => {
    const help = await hookgate(['--help']);
    const commands = [
      ...help
        .split('\nCommands:\n')[1]!
        .split('\n\n')[0]!
        .matchAll(/^ {2}(\w+) /gm),
    ].map((m) => m[1]!);
    expect(commands).toEqual(
      expect.arrayContaining(['serve', 'send', 'fixtures', 'sign', 'replay', 'listen', 'conformance', 'types']),
    );
    const helps = await Promise.all(commands.map((command) => hookgate([command, '--help'])));
    commands.forEach((command, i) => expect(helps[i], command).toMatch(new RegExp(`^Usage: hookgate ${command}\\b`)));
    const { version } = JSON.parse(readFileSync(path.join(root, 'packages/emulator/package.json'), 'utf8'));
    expect((await hookgate(['--version'])).trim()).toContain(version);
  });

  it('writes a typed module with `types`, and it type-checks a keyed handler against the plan', async () => {
    const plan = path.join(root, 'test/fixtures/tracking-plans/public-api-rules.json');
    await hookgate(['types', '--plan', plan, '--out', 'x.ts']);
    const written = readFileSync(path.join(app, 'x.ts'), 'utf8');
    expect(written).toMatch(/export const trackingPlan/);
    // The module the user imports, with the receiver of the tarball: a misspelt event must not compile.
    const consumer = path.join(app, 'consumer.ts');
    writeFileSync(
      consumer,
      `import { createReceiver } from '@hookgate/core';
import { compileTrackingPlan } from '@hookgate/plans';
import { trackingPlan as planExport } from './x.js';
const trackingPlan = compileTrackingPlan(planExport);
createReceiver({ secret: 's', trackingPlan, on: { track: { 'Order Completed': (msg) => msg.properties.order_id.toUpperCase() } } });
// @ts-expect-error -- not an event of the plan
createReceiver({ secret: 's', trackingPlan, on: { track: { 'Order Complete': () => {} } } });
`,
    );
    await run(process.execPath, [
      tsc,
      '--strict',
      '--noEmit',
      '--skipLibCheck',
      '--module',
      'node16',
      '--moduleResolution',
      'node16',
      '--target',
      'es2022',
      'consumer.ts',
    ]);
  });

  it('signs stdin with `sign` as HMAC-SHA1 of the exact bytes', async () => {
    const body = '{"type":"track","event":"Grüße 👋"}';
    const signature = (await hookgate(['sign', '--secret', 's3cret'], body)).trim();
    expect(signature).toBe(createHmac('sha1', 's3cret').update(body, 'utf8').digest('hex'));
  });

  it('prints every fixture with `fixtures`, and one with `fixtures track`', async () => {
    const all = JSON.parse(await hookgate(['fixtures'])) as Record<string, { type: string }>;
    expect(Object.keys(all).sort()).toEqual(['alias', 'delete', 'group', 'identify', 'page', 'screen', 'track']);
    for (const [type, message] of Object.entries(all)) expect(message.type).toBe(type);
    expect(JSON.parse(await hookgate(['fixtures', 'track', '--compact']))).toMatchObject({ type: 'track' });
  });
});

type Exports = Record<string, string | Record<string, unknown>>;

/** Every file an exports condition names (nested conditions walked), with the condition path; types left out. */
function filesOf(target: unknown, conditions: string[] = []): { file: string; conditions: string[] }[] {
  if (typeof target === 'string') return conditions.includes('types') ? [] : [{ file: target, conditions }];
  if (target === null || typeof target !== 'object') return [];
  return Object.entries(target).flatMap(([condition, value]) => filesOf(value, [...conditions, condition]));
}

describe('every export of every package from the tarballs', { timeout: 120_000 }, () => {
  it('imports and requires each subpath by name, with the same exports both ways', async () => {
    const specifiers: { specifier: string; import: boolean; require: boolean }[] = [];
    for (const name of packages) {
      const manifest = JSON.parse(readFileSync(path.join(app, 'node_modules', name, 'package.json'), 'utf8'));
      for (const [subpath, target] of Object.entries(manifest.exports as Exports)) {
        if (subpath === './package.json') continue;
        const conditions = typeof target === 'object' ? Object.keys(target) : ['import', 'require'];
        specifiers.push({
          specifier: name + subpath.slice(1),
          import: conditions.includes('import') || conditions.includes('default'),
          require: conditions.includes('require') || conditions.includes('default'),
        });
      }
    }
    expect(specifiers.map((s) => s.specifier)).toEqual(
      expect.arrayContaining(['@hookgate/core', '@hookgate/core/adapter', '@hookgate/emulator', '@hookgate/bullmq']),
    );
    const list = JSON.stringify(specifiers);
    const [esm, cjs] = await Promise.all([
      run(process.execPath, [
        '--input-type=module',
        '-e',
        `const out = {}; for (const s of ${list}) if (s.import) out[s.specifier] = Object.keys(await import(s.specifier)).sort(); console.log(JSON.stringify(out));`,
      ]),
      run(process.execPath, [
        '-e',
        `const out = {}; for (const s of ${list}) if (s.require) out[s.specifier] = Object.keys(require(s.specifier)).sort(); console.log(JSON.stringify(out));`,
      ]),
    ]);
    const imported = JSON.parse(esm) as Record<string, string[]>;
    const required = JSON.parse(cjs) as Record<string, string[]>;
    for (const { specifier, import: esmToo, require: cjsToo } of specifiers) {
      if (esmToo) expect(imported[specifier]?.length, `${specifier} (import)`).toBeGreaterThan(0);
      if (cjsToo) expect(required[specifier]?.length, `${specifier} (require)`).toBeGreaterThan(0);
      if (esmToo && cjsToo) expect(required[specifier], specifier).toEqual(imported[specifier]);
    }
  });

  it('loads every file each exports map names (each condition: node, default, import, require)', async () => {
    const files: string[] = [];
    for (const name of packages) {
      const manifest = JSON.parse(readFileSync(path.join(app, 'node_modules', name, 'package.json'), 'utf8'));
      for (const [subpath, target] of Object.entries(manifest.exports as Exports)) {
        if (subpath === './package.json') continue;
        for (const { file } of filesOf(target)) files.push(path.join(app, 'node_modules', name, file));
      }
    }
    expect(files.length).toBeGreaterThan(10);
    // An ES module by import(), a .cjs file by require(): each loads with every chunk it imports.
    const script = `const { createRequire } = await import('node:module'); const { pathToFileURL } = await import('node:url');
const require = createRequire(${JSON.stringify(path.join(app, 'index.js'))});
const failed = [];
for (const file of ${JSON.stringify(files)}) {
  try { if (file.endsWith('.cjs')) require(file); else await import(pathToFileURL(file).href); }
  catch (error) { failed.push(file + ': ' + String(error && error.message).split('\\n')[0]); }
}
console.log(JSON.stringify(failed));`;
    expect(JSON.parse(await run(process.execPath, ['--input-type=module', '-e', script]))).toEqual([]);
  });
});
